-- An endless loop in a handler called while another handler's coroutine runs: the tap's
-- coroutine moves the camera, whose notification runs on the plugin's main thread, not on
-- the coroutine, and must be watched there.
return { did_tap_marker = function(map, marker)
  local co = coroutine.create(function()
    map:move_camera{ camera = { target = { lat = 1, lng = 1 }, zoom = 5 } }
  end)
  local ok = coroutine.resume(co)
  return ok
end,
did_change_camera_position = function(map, camera)
  if camera.zoom == 5 then while true do end end
end }
