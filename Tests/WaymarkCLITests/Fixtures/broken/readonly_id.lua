local plugin = {}

function plugin.did_drag_marker(map, marker)
  marker.id = "moved"
end

return plugin
