-- The same taps under the ios, android and web policies (R33). Each map logs what it did;
-- the trace shows the differences side by side:
--   ios:     tap B: did_tap_marker(B), did_close_info_window(A), window for B, camera to B
--   android: tap B: did_close_info_window(A) first, then did_tap_marker(B), window for B
--   web:     tap B: did_tap_marker(B) only; no selection, no window, no camera move
local results = {}
for _, policy in ipairs{ "ios", "android", "web" } do
  local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 10 }, policy = policy }
  map:log("policy " .. policy)
  local a = map:add_marker{ id = policy .. "-a", position = { lat = -33.8683, lng = 151.2086 }, title = "A" }
  local b = map:add_marker{ id = policy .. "-b", position = { lat = -33.80, lng = 151.25 }, title = "B" }
  map:tap(a)
  map:settle()
  map:tap(b)
  map:settle()
  results[policy] = map.selected_marker and map.selected_marker.title or "nothing"
end
expect_eq(results.ios, "B")
expect_eq(results.android, "B")
expect_eq(results.web, "nothing", "the web has no default marker behaviour")
