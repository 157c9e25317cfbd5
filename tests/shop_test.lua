-- tests/shop_test.lua: an open shop opens the plugin's window; a closed one is handled
-- by the plugin, so nothing is selected (docs/semantics.md R6: true from did_tap_marker).
local map = waymark.map{
  camera = { target = { lat = 51.5136, lng = -0.1365 }, zoom = 15 },
  plugins = { "../plugins/shop" },
}
local bakery = map:add_marker{
  id = "bakery", position = { lat = 51.5136, lng = -0.1365 }, title = "Bakery",
  user_data = { shop = true, sells = "bread and buns" },
}
local florist = map:add_marker{
  id = "florist", position = { lat = 51.5150, lng = -0.1330 }, title = "Florist",
  user_data = { shop = true, closed = true },
}

map:tap(bakery)
expect(map.selected_marker == bakery, "an open shop is selected")
expect_eq(map.info_window.kind, "window", "with the plugin's whole window")
map:settle()

map:tap(florist)
expect(map.selected_marker == bakery, "a closed shop's tap is handled: the bakery stays selected")
map:settle()
