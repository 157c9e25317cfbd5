-- A string.rep bomb: refused by the memory cap (no hook could stop this C loop).
local p = {}
function p.did_tap_marker(map, marker)
  local s = string.rep("x", 1 << 40)
  return #s > 0
end
return p
