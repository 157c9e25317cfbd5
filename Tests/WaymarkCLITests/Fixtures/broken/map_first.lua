local plugin = {}

function plugin.did_tap_marker(marker)
  print(marker.title)
end

return plugin
