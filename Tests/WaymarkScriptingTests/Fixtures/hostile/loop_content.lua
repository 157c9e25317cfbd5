-- An endless loop in a content handler: the default window is shown instead.
local p = {}
function p.marker_info_window(map, marker)
  local n = 0
  while true do n = n + 1 end
end
return p
