-- Mutating the string metatable: it is protected (and would be this plugin's alone).
local p = {}
function p.setup(map)
  getmetatable("").__index = function() error("hijacked") end
end
function p.did_tap_marker(map, marker)
  string.upper = nil
  return ("x"):upper() == "X"
end
return p
