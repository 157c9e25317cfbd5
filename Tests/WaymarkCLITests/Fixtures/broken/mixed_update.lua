local plugin = {}

function plugin.did_tap_marker(map, marker)
  map:animate({ zoom_by = 2, zoom = 12 }, { duration = 1 })
  return true
end

return plugin
