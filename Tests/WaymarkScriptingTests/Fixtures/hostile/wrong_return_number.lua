-- A veto handler returning a number: an error, counted as nil.
local p = {}
function p.did_tap_marker(map, marker)
  return 42
end
return p
