-- Keeping a marker after it was removed, and using it later.
local p = { name = "keeper" }
local kept
function p.did_tap_marker(map, marker)
  kept = marker
  map:remove_marker(marker)
  return true
end
function p.did_tap_at_coordinate(map, coordinate)
  print(kept.id, kept.title, kept.map == nil, kept == map:marker("sydney"))
  map:remove_marker(kept)
end
return p
