-- My location (R32): off by default; when on with a known location, the button animates
-- the camera there unless a handler returns true; a tap on the dot reports the location.
-- map.device_location is the simulated device; map.my_location is what the map reports
-- (R52): nil while my location is off.
local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 12 } }
map:tap_my_location_button()
expect_near(map.camera.target.lat, -33.8683, 1e-9, "off: nothing happens")

map.device_location = { lat = -33.8915, lng = 151.2767 }   -- Bondi Beach
expect_eq(map.my_location, nil, "off: the map reports no location (R52)")
map.my_location_enabled = true
expect_near(map.my_location.lat, -33.8915, 1e-9, "on: the device location")
map:tap_my_location_button()
map:settle()
expect_near(map.camera.target.lat, -33.8915, 1e-9, "the camera went to the device location")
expect_near(map.camera.target.lng, 151.2767, 1e-9)
map:tap{ lat = -33.8915, lng = 151.2767 }   -- the blue dot
