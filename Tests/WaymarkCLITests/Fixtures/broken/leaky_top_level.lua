local plugin = { name = "leaky_top_level" }
visits = {}

function plugin.did_tap_marker(map, marker)
  visits[marker.id] = (visits[marker.id] or 0) + 1
end

return plugin
