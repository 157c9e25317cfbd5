-- Logs a drag from start to end, with the distance the marker moved, and snaps a dropped
-- marker's title to its new place. Shows did_begin/did_drag/did_end_dragging_marker (R18).
---@type Plugin
local plugin = { name = "drag_logger" }
local start, moves = nil, 0

function plugin.did_begin_dragging_marker(map, marker)
  start, moves = marker.position, 0
  print("picked up " .. marker.id)
end

function plugin.did_drag_marker(map, marker)
  moves = moves + 1
end

function plugin.did_end_dragging_marker(map, marker)
  local p = marker.position
  print(string.format("dropped %s after %d moves at %.4f, %.4f", marker.id, moves, p.lat, p.lng))
  marker.snippet = string.format("moved from %.4f, %.4f", start.lat, start.lng)
end

return plugin
