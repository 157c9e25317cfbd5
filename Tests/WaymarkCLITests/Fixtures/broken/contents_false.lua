local plugin = {}

function plugin.marker_info_contents(map, marker)
  if marker.snippet == nil then
    return false
  end
  return { vstack = { marker.title, { text = marker.snippet, colour = "gray" } }, spacing = "4" }
end

return plugin
