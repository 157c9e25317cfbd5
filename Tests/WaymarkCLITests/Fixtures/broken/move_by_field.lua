local plugin = {}

function plugin.did_tap_info_window(map, marker)
  marker.position.lat = marker.position.lat + 0.01
  map.camera.zoom = 12
end

return plugin
