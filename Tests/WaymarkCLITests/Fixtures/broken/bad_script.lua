local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 3 } }
local m = map:add_marker{ position = { lat = 1, lng = 1 }, title = "One" }
map:tap(m)
expect_near(map.camera.zoom, 3, "zoom unchanged")
expect_eq(m.titel, "One")
map:animate({ zoom = 4 }, { duraton = 1 })
