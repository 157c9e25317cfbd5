-- The browser tests' witness: at every idle camera it prints where map:point_for puts each
-- marker, and the shown window's marker, kind and text as the plugin (or the marker's title
-- and snippet) gave them. It only listens (a notification), so the demo behaves as without it.
local probe = { name = "probe", priority = -1000 }

-- The text of info-window content, in order: strings, { text = }, lists, stacks and boxes.
local function texts(node, out)
  if type(node) == "string" then
    out[#out + 1] = node
  elseif type(node) == "table" then
    if type(node.text) == "string" then out[#out + 1] = node.text end
    for _, key in ipairs({ "vstack", "hstack", "child" }) do
      if node[key] ~= nil then texts(node[key], out) end
    end
    for _, child in ipairs(node) do texts(child, out) end
  end
  return out
end

function probe.idle_at_camera_position(map)
  local parts = { string.format("probe\t%.6f", map.time) }
  for _, marker in ipairs(map:markers()) do
    local point = map:point_for(marker.position)
    if point then parts[#parts + 1] = string.format("%s=%.4f,%.4f", marker.id, point.x, point.y) end
  end
  print(table.concat(parts, "\t"))
  local window = map.info_window
  if window then
    local lines = window.content and texts(window.content, {})
      or { window.marker and window.marker.title or nil, window.marker and window.marker.snippet or nil }
    print(string.format("window\t%.6f\t%s\t%s\t%s", map.time, window.marker and window.marker.id or "",
      window.kind, table.concat(lines, "\n")))
  end
end

return probe
