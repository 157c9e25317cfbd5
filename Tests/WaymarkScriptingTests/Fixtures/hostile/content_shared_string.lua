-- Content holding 60 references to one 16 MiB string: each reference would be a copy on
-- the host side; the 64 KiB budget of text refuses it before the first copy.
local s = string.rep("x", 16 << 20)
return { marker_info_window = function(map, marker)
  local nodes = {}
  for i = 1, 60 do nodes[i] = { text = s } end
  return nodes
end }
