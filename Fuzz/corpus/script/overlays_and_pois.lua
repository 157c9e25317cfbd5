-- Overlays and points of interest (R5, R15, R17): tappable overlays get did_tap_overlay,
-- the topmost by z-index first; untappable ones let the tap through; markers win over
-- overlays; a POI tap reports the place and shows no window on iOS.
local map = waymark.map{
  camera = { target = { lat = -33.8568, lng = 151.2153 }, zoom = 14 },
  plugins = { "../plugins/place_picker" },
}
map:add_overlay{ kind = "circle", id = "harbour", center = { lat = -33.8568, lng = 151.2153 },
  radius = 400, tappable = true, z_index = 1 }
map:add_overlay{ kind = "polyline", id = "walk", tappable = true, z_index = 2, width = 6,
  path = { { lat = -33.8585, lng = 151.2050 }, { lat = -33.8585, lng = 151.2250 } } }
map:add_overlay{ kind = "polygon", id = "park", path = { { lat = -33.85, lng = 151.20 }, { lat = -33.85, lng = 151.23 },
  { lat = -33.87, lng = 151.23 }, { lat = -33.87, lng = 151.20 } } }
map:add_poi{ place_id = "ChIJ3S-JXmauEmsRUcIaWtf4MzE", name = "Sydney Opera House", location = { lat = -33.8523, lng = 151.2108 } }
local ferry = map:add_marker{ id = "ferry", position = { lat = -33.8585, lng = 151.2153 }, title = "Ferry" }

map:tap{ lat = -33.8585, lng = 151.2130 }   -- on the walk, inside the harbour: the walk is on top
map:tap{ lat = -33.8560, lng = 151.2170 }   -- inside the harbour only
map:tap{ lat = -33.8523, lng = 151.2108 }   -- the Opera House: a POI
map:tap(ferry)                               -- a marker over both overlays: the marker wins (R5)
expect(map.selected_marker == ferry)
map:tap{ lat = -33.8660, lng = 151.2250 }   -- the untappable park: the tap reaches the map
expect(map.selected_marker == nil, "a tap on the map deselects (R14)")
map:settle()
expect_eq(map.info_window, nil, "iOS shows no window for a POI (R17)")
