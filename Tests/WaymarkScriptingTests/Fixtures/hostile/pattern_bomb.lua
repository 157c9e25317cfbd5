-- Backtracking in a pattern runs inside one C call that Lua's hook cannot interrupt; the
-- sandbox's matcher counts its steps and stops at the time budget like any Lua loop.
local subject = string.rep("a", 5000)
return { did_tap_marker = function(map, marker)
  return subject:find(".-.-.-.-.-b") ~= nil
end }
