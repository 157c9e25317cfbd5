-- Input from inside a handler: refused by the re-entrancy rule, reported cleanly.
local p = {}
function p.did_tap_marker(map, marker)
  map:tap(marker)
  return true
end
return p
