-- A table that grows forever: refused by the memory cap.
local p = {}
function p.did_tap_marker(map, marker)
  local t = {}
  for i = 1, math.maxinteger do t[i] = { i, i } end
  return true
end
return p
