local plugin = {}

function plugin.did_tap_info_window(map, marker)
  map:log("window of " .. marker.titel)
  marker.snipet = "visited"
end

return plugin
