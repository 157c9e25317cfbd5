local plugin = {}

function plugin.did_long_press_at_coordinate(map, coordinate)
  map:add_marker{ lat = coordinate.lat, lng = coordinate.lng, title = "Pin" }
end

return plugin
