local plugin = {}

function plugin.did_tap_marker(map, marker)
  map:animate_camera({ target = marker.position, zoom = 10 })
  return true
end

return plugin
