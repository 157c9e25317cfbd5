local map = waymark.map{ policy = "andriod" }
local m = map:add_marker{ position = { lat = 0, lng = 0 }, appear_animation = "fade" }
map:animate_marker(m, { lat = 1, lng = 1 }, { easing = "ease-in" })
map:advance()
map:tap()
map:settle()
