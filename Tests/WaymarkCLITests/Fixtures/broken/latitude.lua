local plugin = {}

function plugin.did_tap_at_coordinate(map, coordinate)
  map:log(string.format("%.4f, %.4f", coordinate.latitude, coordinate.lng))
end

return plugin
