-- Scenario S4, "Fit bounds": move the camera (no animation) so both markers fit with 50
-- points of padding; a long press adds a marker titled with its coordinate (the plugin in
-- plugins/fit_bounds).
local map = waymark.map{
  camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 4 },
  plugins = { "../plugins/fit_bounds" },
}
local a = map:add_marker{ id = "sydney", position = { lat = -33.8683, lng = 151.2086 } }
local b = map:add_marker{ id = "west", position = { lat = -33.8683, lng = 149.2086 } }

map:move_camera{ fit = { a.position, b.position }, padding = 50 }
expect_eq(map.camera.bearing, 0)
expect_eq(map.camera.tilt, 0)
local pa, pb = map:point_for(a.position), map:point_for(b.position)
expect_near(math.abs(pa.x - pb.x), 390 - 100, 1e-6, "the markers span the width less the padding")

local pressed = map:coordinate_for{ x = 195, y = 600 }
map:long_press{ x = 195, y = 600 }
expect_eq(#map:markers(), 3)
expect_eq(map:markers()[3].title, string.format("Marker at: %.6f, %.6f", pressed.lat, pressed.lng))
map:settle()
