-- Loading a binary chunk: load accepts text only.
local p = {}
function p.did_tap_marker(map, marker)
  local f, err = load(string.dump(function() return true end))
  if not f then error(err) end
  return f()
end
return p
