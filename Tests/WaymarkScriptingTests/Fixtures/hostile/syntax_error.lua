-- A syntax error: not loaded; the map behaves as if it were absent.
local p = {}
function p.did_tap_marker(map, marker)
  return marker.id ==
end
return p
