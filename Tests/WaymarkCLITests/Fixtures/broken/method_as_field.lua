local plugin = {}

function plugin.setup(map)
  local zoom = map:camera().zoom
  print(zoom)
end

return plugin
