-- user_data holding 100 references to one 16 MiB string: refused before it is copied.
local s = string.rep("x", 16 << 20)
return { did_tap_marker = function(map, marker)
  local t = {}
  for i = 1, 100 do t[i] = s end
  marker.user_data = t
end }
