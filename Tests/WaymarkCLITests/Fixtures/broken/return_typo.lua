local plugin = { name = "return_typo" }

function plugin.did_tap_marker(map, marker)
  return marker.id == "home"
end

return plugins
