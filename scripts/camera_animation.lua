-- Scenario S6, "Camera animation": every 1/30 s animate to zoom - 0.1 (down to 17.5),
-- bearing + 10 and tilt + 10. Each animation replaces the last from where it is, starting
-- from rest (ease in, ease out), so the camera creeps: the zoom settles at 17.5, the bearing
-- keeps turning and the tilt saturates at the zoom's maximum (65, R22).
local map = waymark.map{ camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 20 } }

local function step()
  local camera = map.camera
  map:animate{ zoom = math.max(camera.zoom - 0.1, 17.5), bearing = camera.bearing + 10, tilt = camera.tilt + 10 }
  map:after(1 / 30, step)
end
step()

map:advance(120)
expect_near(map.camera.zoom, 17.5, 1e-6, "the zoom settles at 17.5")
expect_near(map.camera.tilt, 65, 1e-9, "the tilt saturates at 65")
local bearing = map.camera.bearing
map:advance(1)
expect(math.abs(map.camera.bearing - bearing) > 1, "the bearing keeps turning")
