local plugin = {}

function plugin.did_tap_marker(map, marker)
  map.log("tapped " .. marker.id)
end

return plugin
