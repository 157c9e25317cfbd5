local plugin = {}

function plugin.did_long_press_at_coordinate(map, coordinate)
  map:add_marker("Dropped pin")
end

return plugin
