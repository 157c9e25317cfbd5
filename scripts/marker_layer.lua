-- Scenario S3, "Marker layer": a plane flies a loop over Europe (the plugin in
-- plugins/marker_layer adds it and chains the hops from completion callbacks); taps fade it.
local map = waymark.map{
  camera = { target = { lat = 51, lng = 4 }, zoom = 5 },
  plugins = { "../plugins/marker_layer" },
}
local plane = map:marker("plane")
expect(plane ~= nil, "the plugin's setup added the plane")

-- Amsterdam to London is about 361 km: 7.2 s at 50,000 m/s.
map:advance(7.3)
expect_near(plane.position.lat, 51.471386, 1e-9, "the plane reached London")
expect_near(plane.position.lng, -0.457148, 1e-9)

-- Tap the plane mid-flight: handled, faded, not selected.
map:advance(2)
map:tap(plane)
expect_eq(plane.opacity, 0.5)
expect(map.selected_marker == nil, "the tap was handled")

-- A tap on the map restores it.
map:tap{ x = 20, y = 20 }
expect_eq(plane.opacity, 1)

-- One whole loop later the plane is still flying: it never stops.
map:advance(30)
expect(map.is_camera_moving == false)
