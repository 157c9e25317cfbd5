-- One print of 8 MiB and a map:log of many large values: the trace keeps 64 KiB of each.
local s = string.rep("m", 8 << 20)
return { did_tap_marker = function(map, marker)
  print(s)
  map:log(s)
end }
