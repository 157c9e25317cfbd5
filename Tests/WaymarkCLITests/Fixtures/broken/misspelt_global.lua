local plugin = {}
local greeting = "hello"

function plugin.did_tap_marker(map, marker)
  print(greting .. " " .. marker.id)
end

return plugin
