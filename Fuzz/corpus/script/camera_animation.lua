-- Scenario S6, "Camera animation": every 1/30 s animate to zoom - 0.1 (down to 17.5),
-- bearing + 10 and tilt + 10. Each animation replaces the last from where it is, starting
-- from rest (ease in, ease out, R26, R27), so the camera creeps: within 30 s the tilt
-- saturates at the zoom's maximum (65, R22) while the bearing keeps turning and the zoom
-- heads for 17.5, which it reaches after about 90 s (the Swift scenario test S6 waits for it).
local map = waymark.map{ camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 20 } }

local function step()
  local camera = map.camera
  map:animate{ zoom = math.max(camera.zoom - 0.1, 17.5), bearing = camera.bearing + 10, tilt = camera.tilt + 10 }
  map:after(1 / 30, step)
end
step()

local zooms = {}
for second = 1, 30 do
  map:advance(1)
  zooms[second] = map.camera.zoom
end
expect(zooms[30] < zooms[10] and zooms[10] < zooms[1] and zooms[1] < 20, "the zoom keeps going down")
expect(zooms[30] > 17.5, "towards 17.5")
expect_near(map.camera.tilt, 65, 0.01, "the tilt saturates at 65")
local bearing = map.camera.bearing
map:advance(1)
expect(math.abs(map.camera.bearing - bearing) > 1, "the bearing keeps turning")
