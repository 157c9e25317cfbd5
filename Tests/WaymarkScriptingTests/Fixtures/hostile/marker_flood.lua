-- Adds markers on every tap: past its limit of live objects each add_marker is refused.
return { did_tap_at_coordinate = function(map, coordinate)
  for i = 1, 400 do map:add_marker{ position = { lat = 0, lng = i / 10 } } end
end }
