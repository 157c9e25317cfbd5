-- Logs a tapped marker's neighbours in the order `pairs` walks a table of string keys
-- (issue 30): a plugin's state hashes strings with the same fixed seed as the script's.
local plugin = { name = "pairs_logger" }

local neighbours = {
  ["north-east"] = 1, ["south-west"] = 2, harbour = 3, bridge = 4, opera = 5, quay = 6,
  ferry = 7, park = 8, museum = 9, station = 10, market = 11, gardens = 12,
}

function plugin.did_tap_marker(map, marker)
  local names = {}
  for name in pairs(neighbours) do names[#names + 1] = name end
  print(marker.id .. " is near " .. table.concat(names, ", "))
  return true
end

return plugin
