-- Unbounded recursion: a stack overflow (or the memory cap), never a crash.
local p = {}
local function deeper(n) return deeper(n + 1) + 1 end
function p.did_tap_marker(map, marker)
  return deeper(1) > 0
end
return p
