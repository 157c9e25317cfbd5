-- save_state returning 100 references to one 16 MiB string: the state is not carried
-- over (a plugin_error says why) instead of being copied 100 times.
local s = string.rep("z", 16 << 20)
local p = {}
function p.save_state()
  local t = {}
  for i = 1, 100 do t[i] = s end
  return t
end
function p.on_reload(old) print("old state:", type(old)) end
return p
