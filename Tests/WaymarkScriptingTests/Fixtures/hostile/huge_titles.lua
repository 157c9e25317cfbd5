-- Thirty markers with 16 MiB titles: each is refused before its title is copied.
local s = string.rep("T", 16 << 20)
return { did_tap_marker = function(map, marker)
  for i = 1, 30 do map:add_marker{ position = { lat = 0, lng = i }, title = s } end
end }
