local plugin = { name = "colon_handler" }

function plugin:did_tap_marker(map, marker)
  print("tapped " .. marker.id)
  return true
end

return plugin
