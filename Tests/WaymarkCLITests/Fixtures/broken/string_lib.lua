local plugin = {}

function plugin.did_tap_marker(map, marker)
  print(string.fomat("%s tapped", marker.id))
end

return plugin
