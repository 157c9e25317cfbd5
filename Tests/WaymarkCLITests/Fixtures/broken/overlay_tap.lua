local plugin = {}

function plugin.did_tap_overlay(map, overlay)
  map:log("tapped " .. overlay.titel)
end

return plugin
