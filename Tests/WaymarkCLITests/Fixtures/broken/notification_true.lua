local plugin = {}

function plugin.did_tap_info_window(map, marker)
  map.selected_marker = nil
  return true
end

return plugin
