-- Scenario S1, "Marker events": run it with
--   swift run waymark run scripts/marker_events.lua
-- Sydney and Melbourne have no title or snippet; the plugin in plugins/marker_events decides
-- what a tap does (see its comments).
local map = waymark.map{
  camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 4 },
  plugins = { "../plugins/marker_events" },
}
local sydney = map:add_marker{ id = "sydney", position = { lat = -33.8683, lng = 151.2086 } }
local melbourne = map:add_marker{ id = "melbourne", position = { lat = -37.81969, lng = 144.966085 } }
map:settle()

-- Tap Sydney: the camera flies there; the tap is handled, so nothing is selected.
map:tap(sydney)
map:settle()
expect(map.selected_marker == nil, "a handled tap selects nothing")
expect_near(map.camera.zoom, 8, 1e-9)
expect_near(map.camera.bearing, 50, 1e-9)
expect_near(map.camera.tilt, 30, 1e-9, "tilt 60 is clamped to the zoom-8 maximum (R22)")

-- Tap Melbourne: the camera flies back and Melbourne opens its custom window.
map:tap(melbourne)
map:settle()
expect(map.selected_marker == melbourne, "Melbourne is selected")
expect_eq(map.info_window.kind, "window")

-- Tap Melbourne again: handled now, so the window stays.
map:tap(melbourne)
map:settle()
expect(map.info_window ~= nil and map.info_window.marker == melbourne, "the window stays open")

-- Tap the empty map: the window closes and nothing is selected.
map:tap{ x = 30, y = 800 }
expect(map.selected_marker == nil, "a tap on the map deselects")
expect(map.info_window == nil, "and closes the window")
