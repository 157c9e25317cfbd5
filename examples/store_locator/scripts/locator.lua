-- scripts/locator.lua: a morning and an evening in Melbourne. `waymark run scripts/locator.lua`
-- prints the trace; --html locator.html plays it in a browser.
local json = require("dkjson") -- dkjson, from Debian's /usr/share/lua/5.4
local hours = require("opening_hours")

local map = waymark.map{ camera = { target = { lat = -37.8136, lng = 144.9631 }, zoom = 12 } }
local shops = map:add_markers(hours.markers(waymark.data.csv("data/stores.csv")))
local suburbs = map:add_markers(waymark.data.geojson("data/suburbs.geojson"), { title = "name" })
local summary = { stores = #shops, suburbs = #suburbs, time = os.date("%H:%M %Z") }
print(json.encode(summary, { keyorder = { "stores", "suburbs", "time" } }))

-- 8:30: Pellegrini's is open until 23:00.
local pellegrinis = map:marker("pellegrinis")
map:tap(pellegrinis)
expect_eq(map.info_window.content[2].text, "Open until 23:00", "an open store's window")
map:settle()

-- Chapel St closes at 9:00: at 8:30 the window warns.
map:tap(map:marker("chapel"))
expect_eq(map.info_window.content[2].text, "Closing soon: 09:00", "30 minutes before closing")
map:settle()

-- Ten hours later, 18:30: Lygon Roasters closed at 17:00, its tap is vetoed.
map:advance(10 * 3600)
map:tap{ x = 20, y = 20 }
map:settle()
map:tap(map:marker("lygon"))
expect(map.selected_marker == nil, "a closed store is not selected")
expect(map.info_window == nil, "and shows no window")
