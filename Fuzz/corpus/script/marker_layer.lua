-- Scenario S3, "Marker layer": a plane flies a loop over Europe (the plugin in
-- plugins/marker_layer adds it and chains the hops from completion callbacks); taps fade it.
local map = waymark.map{
  camera = { target = { lat = 51, lng = 4 }, zoom = 5 },
  plugins = { "../plugins/marker_layer" },
}
local plane = map:marker("plane")
expect(plane ~= nil, "the plugin's setup added the plane")

-- Amsterdam to London is about 371 km: 7.4 s at 50,000 m/s. Half a frame after landing,
-- the plane stands in London, turned towards Paris for the next hop.
local function distance(a, b)
  local r = math.pi / 180
  local h = math.sin((b.lat - a.lat) * r / 2) ^ 2
    + math.cos(a.lat * r) * math.cos(b.lat * r) * math.sin((b.lng - a.lng) * r / 2) ^ 2
  return 2 * 6378137 * math.asin(math.sqrt(h))
end
local london = { lat = 51.471386, lng = -0.457148 }
local landing = distance(plane.position, london) / 50000
map:advance(landing + 1 / 120)
expect_near(plane.position.lat, london.lat, 0.01, "the plane reached London")
expect_near(plane.position.lng, london.lng, 0.01)
expect(plane.rotation > 100 and plane.rotation < 180, "and turned south-east, towards Paris")

-- Tap the plane mid-flight: handled, faded, not selected.
map:advance(2)
map:move_camera{ target = plane.position }
map:tap(plane)
expect_eq(plane.opacity, 0.5)
expect(map.selected_marker == nil, "the tap was handled")

-- A tap on the map restores it.
map:tap{ x = 20, y = 20 }
expect_eq(plane.opacity, 1)

-- The loop never ends: settle would give up, so the script advances time instead.
local before = plane.position
map:advance(30)
expect(plane.position.lat ~= before.lat, "still flying")
