-- Scenario S5, "Min/max zoom": each new zoom range clamps the current zoom at once (R21).
local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 6 } }
local expected = { 6, 18, 8, 10 }
for index, range in ipairs{ { 2, 21 }, { 18, 21 }, { 2, 8 }, { 10, 11.5 } } do
  map:set_min_max_zoom(range[1], range[2])
  expect_eq(map.camera.zoom, expected[index], "zoom in range " .. range[1] .. "..." .. range[2])
  map:settle()
end
local ok, message = pcall(map.set_min_max_zoom, map, 12, 3)
expect(not ok and message:find("min_zoom: 12 is greater than max_zoom 3"), "min > max is an error")
