-- Scenario S2, "Custom info windows": a whole custom window, custom contents, and the
-- default window, and the callbacks that close them. The plugin is in
-- plugins/custom_info_windows; its prints appear in the trace as log records.
local map = waymark.map{
  camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 5 },
  plugins = { "../plugins/custom_info_windows" },
}
local sydney = map:add_marker{ id = "sydney", position = { lat = -33.8683, lng = 151.2086 },
  title = "Sydney", snippet = "Population: 4,605,992" }
local melbourne = map:add_marker{ id = "melbourne", position = { lat = -37.81969, lng = 144.966085 },
  title = "Melbourne", snippet = "Population: 4,169,103" }
local brisbane = map:add_marker{ id = "brisbane", position = { lat = -27.4710107, lng = 153.0234489 },
  title = "Brisbane", snippet = "Population: 2,189,878" }
map:settle()

map:tap(sydney)
map:settle()
expect_eq(map.info_window.kind, "window", "Sydney: a whole custom window")

-- (Sydney's window stands above its pin; at zoom 5 it does not cover Brisbane, so the tap
-- reaches Brisbane's pin. A window covering a pin would get the tap instead: R16.)
map:tap(brisbane)
map:settle()
expect_eq(map.info_window.kind, "contents", "Brisbane: custom contents in the default frame")

map:tap(melbourne)
map:settle()
expect_eq(map.info_window.kind, "default", "Melbourne: the default window")

map:long_press_info_window()
map:tap{ x = 20, y = 820 }
expect(map.info_window == nil, "a tap on the map closes the window")
