local plugin = { name = "no_return" }

function plugin.did_tap_marker(map, marker)
  return marker.id == "secret"
end
