local plugin = {}

function plugin.did_long_press_at_coordinate(map, coordinate)
  os.execute("say hello")
  local home = os.getenv("HOME")
  map:log(home)
end

return plugin
