local plugin = {}

function plugin.marker_info_window(map, marker)
  if marker.title == nil then
    return nil
  end
  return 42
end

return plugin
