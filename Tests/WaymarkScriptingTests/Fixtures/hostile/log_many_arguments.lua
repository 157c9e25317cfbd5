-- print and map:log of a hundred arguments of 8 MiB each (one string, a hundred references):
-- joined, they would be 800 MiB; only what the record keeps is joined, the rest is counted.
local s = string.rep("m", 8 << 20)
local many = {}
for i = 1, 100 do many[i] = s end
return { did_tap_marker = function(map, marker)
  print(table.unpack(many))
  map:log(table.unpack(many))
end }
