-- Google's icon-view sample: run it with
--   swift run waymark run scripts/icon_view.lua --html /tmp/icon_view.html
-- A marker at Sydney whose icon is a view (R3): the table given as icon_view is the view
-- itself (R36), so the script tints it from blue to red over a second by writing into the
-- table, and the map draws each change at the next frame while tracks_view_changes is on
-- (the default). When the animation ends the script turns tracking off, as Google's guide
-- advises: every tracked frame is a redraw (`waymark test --profile` counts them), and a
-- view that no longer changes need not cost any.
local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 12 } }
local house = { name = "house", width = 32, height = 32, color = "#1a73e8" }
local sydney = map:add_marker{ id = "sydney", position = { lat = -33.8683, lng = 151.2086 }, icon_view = house }

-- The tint goes from blue (26, 115, 232) to red (234, 67, 53) in ten steps, 0.1 s apart.
local steps = 10
local function tint(step)
  local t = step / steps
  local function channel(from, to) return math.floor(from + (to - from) * t + 0.5) end
  house.color = string.format("#%02x%02x%02x", channel(26, 234), channel(115, 67), channel(232, 53))
  -- The animation's completion comes after its last frame: then tracking stops.
  map:after(0.1, function()
    if step < steps then tint(step + 1) else sydney.tracks_view_changes = false end
  end)
end
tint(0)
map:settle()
expect_eq(sydney.icon_view.color, "#ea4335", "the last step was drawn before tracking stopped")
expect(not sydney.tracks_view_changes)

-- Tracking is off: the view is a snapshot now, and a change to the table no longer shows.
house.width, house.color = 64, "#34a853"
map:advance(1)
expect_eq(sydney.icon_view.width, 32, "a snapshot")
expect_eq(sydney.icon_view.color, "#ea4335")
map:snapshot()
