-- Each camera change makes three more: a feedback loop through the map. It is refused
-- once calls nest 16 deep, and five such failures disable the plugin.
return { did_change_camera_position = function(map, camera)
  for i = 1, 3 do map:move_camera{ zoom_by = 0.001 } end
end }
