-- Backtracking in Lua's pattern matcher runs inside one C call that no hook can interrupt:
-- the sandbox refuses patterns whose worst case is out of reach, with a clear error.
local subject = string.rep("a", 5000)
return { did_tap_marker = function(map, marker)
  return subject:find(".-.-.-.-.-b") ~= nil
end }
