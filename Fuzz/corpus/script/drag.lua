-- Dragging markers (R18, R19): a long press on a draggable marker drags it, frame by frame;
-- on a fixed marker it is only a long press.
local map = waymark.map{
  camera = { target = { lat = 48.8584, lng = 2.2945 }, zoom = 14 },
  plugins = { "../plugins/drag_logger" },
}
local pin = map:add_marker{ id = "pin", position = { lat = 48.8584, lng = 2.2945 }, draggable = true, title = "Drag me" }
local fixed = map:add_marker{ id = "fixed", position = { lat = 48.8606, lng = 2.3376 }, title = "Louvre" }

map:drag(pin, { lat = 48.8530, lng = 2.3499 }, { duration = 1 })
map:settle()
expect_near(pin.position.lat, 48.8530, 1e-9, "the pin ends where the finger lifted")
expect_eq(pin.snippet, "moved from 48.8584, 2.2945")
expect(map.selected_marker == nil, "dragging does not select (R18)")

map:drag(fixed, { lat = 48.87, lng = 2.33 })
map:settle()
expect_near(fixed.position.lat, 48.8606, 1e-9, "a fixed marker does not move (R19)")
