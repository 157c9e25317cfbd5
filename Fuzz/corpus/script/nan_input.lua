local map = waymark.map{ camera = { target = { lat = -33.87, lng = 151.21 }, zoom = 10 } }
map:add_marker{ id = "m", position = { lat = -33.87, lng = 151.21 }, title = "M" }
map:tap{ x = 1e308, y = 100 }
print(map:coordinate_for{ x = 0/0, y = 0 })
map:advance(1e9)
map:settle()
