-- Mutating the string metatable: it is protected (and would be this plugin's alone).
local p = {}
function p.did_tap_marker(map, marker)
  local hijacked = pcall(function() getmetatable("").__index = function() error("hijacked") end end)
  print("hijacked:", hijacked)
  string.upper = nil
  return ("x"):upper() == "X"
end
return p
