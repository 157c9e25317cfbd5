-- A thousand 64 KiB prints on every camera frame: past 16 MiB of log text the plugin's
-- prints are refused with an error.
local chunk = string.rep("p", 64 << 10)
return { did_change_camera_position = function(map, camera)
  for i = 1, 1000 do print(chunk) end
end }
