-- Changing the selection from inside marker_info_window (R13): deferred, then applied.
local p = {}
function p.marker_info_window(map, marker)
  if marker.id == "melbourne" then
    map.selected_marker = map:marker("sydney")
  end
  return "window of " .. marker.id
end
return p
