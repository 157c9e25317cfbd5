-- Adds markers and logs in the order `pairs` walks tables of string keys: the trace must be
-- the same in every process (issue 30; PairsOrderTests runs it in 20 of them).
local map = waymark.map{
  camera = { target = { lat = -33.86, lng = 151.21 }, zoom = 14 },
  plugins = { "plugins/pairs_logger" },
}

local places = {
  opera = { lat = -33.8568, lng = 151.2153 }, bridge = { lat = -33.8523, lng = 151.2108 },
  quay = { lat = -33.8610, lng = 151.2111 }, rocks = { lat = -33.8599, lng = 151.2090 },
  domain = { lat = -33.8688, lng = 151.2170 }, darling = { lat = -33.8731, lng = 151.1990 },
  barangaroo = { lat = -33.8610, lng = 151.2020 }, pyrmont = { lat = -33.8700, lng = 151.1940 },
  glebe = { lat = -33.8790, lng = 151.1860 }, newtown = { lat = -33.8970, lng = 151.1790 },
  bondi = { lat = -33.8915, lng = 151.2767 }, manly = { lat = -33.7969, lng = 151.2840 },
}
local added = {}
for id, position in pairs(places) do added[id] = map:add_marker{ id = id, title = id, position = position } end
map:settle()

local settings = { zoom = 1, bearing = 2, tilt = 3, padding = 4, style = 5, traffic = 6, buildings = 7 }
local names = {}
for name, value in pairs(settings) do names[#names + 1] = name .. "=" .. value end
print(table.concat(names, " "))

for id, marker in pairs(added) do
  if id:find("o") then map:tap(marker) end
end
map:settle()
