-- tests/cart_test.lua: a tap on a shop's window puts one of its items in the cart, and the
-- window shows it when it opens again (docs/semantics.md R16: did_tap_info_window).
local map = waymark.map{
  camera = { target = { lat = 51.5136, lng = -0.1365 }, zoom = 15 },
  plugins = { "../plugins/shop" },
}
local bakery = map:add_marker{
  id = "bakery", position = { lat = 51.5136, lng = -0.1365 }, title = "Bakery",
  user_data = { shop = true, sells = "bread and buns" },
}

map:tap(bakery)
map:tap_info_window()
map:tap_info_window()
map:settle()
map:tap{ x = 20, y = 20 }  -- the empty map: the window closes
expect(map.info_window == nil, "the window closed")
map:tap(bakery)
expect_eq(map.info_window.content[3].text, "2 in your cart", "the window counts what is in the cart")
map:settle()
