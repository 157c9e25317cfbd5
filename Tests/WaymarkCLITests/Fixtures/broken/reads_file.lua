local plugin = {}

function plugin.setup(map)
  local file = io.open("places.csv")
  print(file:read("a"))
end

return plugin
