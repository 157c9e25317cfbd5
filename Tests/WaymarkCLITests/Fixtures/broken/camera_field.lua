local plugin = {}

function plugin.idle_at_camera_position(map, camera)
  map:log("zoom " .. camera.zom)
end

return plugin
