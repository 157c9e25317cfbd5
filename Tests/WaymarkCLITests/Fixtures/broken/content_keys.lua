local plugin = {}

function plugin.marker_info_window(map, marker)
  return {
    { txt = marker.title, style = "title" },
    { text = marker.snippet, styel = "caption" },
    { image = "pin", width = 40 },
  }
end

return plugin
