-- An error whose message is 8 MiB: the plugin_error keeps 64 KiB of it.
local s = string.rep("e", 8 << 20)
return { did_tap_marker = function(map, marker) error(s, 0) end }
