-- Three realistic plugins working together on one map (composition, docs/plugins.md):
--   cluster_zoom (priority 10) zooms in on a tapped cluster of cafés (map:clusters{}, R71);
--   guided_tour chains camera animations through the tour stops;
--   rich_tooltip gives rated places a window with stars.
local map = waymark.map{
  camera = { target = { lat = 41.8902, lng = 12.4922 }, zoom = 11 },
  plugins = { "../plugins/cluster_zoom", "../plugins/guided_tour", "../plugins/rich_tooltip" },
}
-- Twelve cafés near Piazza del Popolo, clustered as Google Maps Utils clusters them.
local cafes = map:clusters{}
for i = 1, 12 do
  cafes:add{ id = "cafe-" .. i, position = { lat = 41.93 + 0.0006 * (i % 4), lng = 12.44 + 0.0009 * (i // 4) },
    title = "Café " .. i }
end
cafes:cluster()
local cluster = cafes:markers()[1]
expect_eq(cluster.cluster.count, 12)
map:add_marker{ id = "colosseum", position = { lat = 41.8902, lng = 12.4922 }, title = "Colosseum",
  user_data = { tour = 1, rating = 4.7, note = "Arrive early; the underground tour sells out." } }
local pantheon = map:add_marker{ id = "pantheon", position = { lat = 41.8986, lng = 12.4769 }, title = "Pantheon",
  user_data = { tour = 2, rating = 4.8, note = "Free entry; look up at the oculus." } }
local start = map:add_marker{ id = "start", position = { lat = 41.9009, lng = 12.4833 }, title = "Start the tour" }
map:settle()

-- The cluster zooms in to fit its cafés instead of being selected (cluster_zoom handled the tap).
map:tap(cluster)
map:settle()
expect(map.camera.zoom > 15, "the camera fits the twelve cafés")
expect(map.selected_marker == nil)

-- A rated place gets the rich tooltip: custom contents in the default frame.
map:tap(pantheon)
map:settle()
expect_eq(map.info_window.kind, "contents")

-- The tour: two stops, each selected on arrival, then "tour finished".
map:tap(start)
map:settle()
expect(map.selected_marker == pantheon, "the tour ends at its last stop")
expect_near(map.camera.bearing, 60, 1e-9)
