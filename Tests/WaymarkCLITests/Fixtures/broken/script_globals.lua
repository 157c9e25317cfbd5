local map = waymark.map{ camera = { target = { lat = 48.85, lng = 2.35 }, zoom = 12 } }
local tower = map:add_marker{ id = "tower", position = { lat = 48.8584, lng = 2.2945 } }
map:tap(tower)
map:settle()
expect_eq(map.selected_marker, towr, "the tower is selected")
expect_ne(map.info_window, nil)
