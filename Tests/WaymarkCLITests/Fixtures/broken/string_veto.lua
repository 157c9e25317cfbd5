local plugin = {}

function plugin.did_tap_marker(map, marker)
  if marker.id == "home" then
    return "handled"
  end
  return false
end

return plugin
