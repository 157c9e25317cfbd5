-- tests/stores_test.lua: `waymark test` in this folder runs it (the project's test paths).
local hours = require("opening_hours")

describe("the stores module", function()
  it("reads a time of day", function()
    expect_eq(hours.minutes("07:30"), 450)
    expect_eq(hours.minutes("23:00"), 1380)
  end)

  it("refuses a time that is not HH:MM", function()
    local ok, message = pcall(hours.minutes, "7h30")
    expect(not ok, "an error")
    expect(message:find("not a time of day", 1, true) ~= nil, message)
  end)

  it("tells open from closed in Melbourne time", function()
    local shop = { opens = "08:00", closes = "16:00" }
    -- the project's clock: 2 June 2025, 8:30 AEST, the same on every machine
    expect_eq(os.date("%Y-%m-%d %H:%M %Z", os.time()), "2025-06-02 08:30 AEST")
    expect(hours.is_open(shop, os.time()), "open at 8:30")
    expect(not hours.is_open(shop, os.time() - 3600), "closed at 7:30")
    expect(not hours.is_open(shop, os.time() + 8 * 3600), "closed at 16:30")
  end)
end)

describe("the data files", function()
  it("reads quoted CSV fields whole", function()
    local rows = waymark.data.csv("data/stores.csv")
    expect_eq(#rows, 6)
    expect_eq(rows[2].name, "Pellegrini's, Bourke St")
    expect_eq(rows[3].name, 'The "Good" Bean')
  end)

  it("refuses a path that leaves the data folder", function()
    local ok, message = pcall(waymark.data.read, "../waymark.lua")
    expect(not ok, "an error")
    expect(message:find("outside the data folders", 1, true) ~= nil, message)
  end)
end)

describe("the stores plugin", function()
  local map

  before_each(function()
    map = waymark.map{ camera = { target = { lat = -37.8136, lng = 144.9631 }, zoom = 12 } }
    map:add_markers(hours.markers(waymark.data.csv("data/stores.csv")))
    map:add_markers(waymark.data.geojson("data/suburbs.geojson"), { title = "name" })
  end)

  it("opens an open store's window with its closing time", function()
    map:tap(map:marker("pellegrinis"))
    expect_eq(map.info_window.content[1].text, "Pellegrini's, Bourke St")
    expect_eq(map.info_window.content[2].text, "Open until 23:00")
  end)

  it("warns when closing time is near (settings.closing_soon_minutes)", function()
    map:tap(map:marker("chapel"))
    expect_eq(map.info_window.content[2].text, "Closing soon: 09:00")
  end)

  it("vetoes the tap on a closed store", function()
    map:tap(map:marker("lygon")) -- opens at 9:00
    expect(map.selected_marker == nil, "nothing is selected")
    expect(map.info_window == nil, "no window opens")
  end)

  it("leaves a suburb's marker its default window", function()
    map:tap(map:marker("suburb-carlton"))
    expect_eq(map.info_window.kind, "default")
    expect_eq(map.selected_marker.title, "Carlton")
  end)
end)

describe("settings from a script", function()
  it("win over the project's", function()
    local map = waymark.map{
      camera = { target = { lat = -37.8136, lng = 144.9631 }, zoom = 12 },
      settings = { stores = { closing_soon_minutes = 24 * 60 } },
    }
    map:add_markers(hours.markers(waymark.data.csv("data/stores.csv")))
    map:tap(map:marker("pellegrinis"))
    expect_eq(map.info_window.content[2].text, "Closing soon: 23:00")
  end)
end)
