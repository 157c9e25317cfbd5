local plugin = {}

function plugin.did_long_press_at_coordinate(map, coordinate)
  map:add_marker{ position = coordinate, titel = "Dropped pin", dragable = true }
end

return plugin
