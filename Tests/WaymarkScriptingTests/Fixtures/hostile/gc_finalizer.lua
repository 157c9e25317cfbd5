-- An endless loop in a finalizer would run when the collector or lua_close decides, outside
-- any handler's budget: the sandbox refuses __gc, so the plugin does not load.
local trap = setmetatable({}, { __gc = function() while true do end end })
return { did_tap_marker = function(map, marker) return trap ~= nil end }
