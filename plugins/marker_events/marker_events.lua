-- Google's "Marker events" sample (scenario S1) as a plugin.
--
-- A tap on any marker flies the camera there over 3 seconds (zoom 8, bearing 50, tilt 60,
-- which the map clamps to the zoom's maximum of 30). The tap is handled (true: no default
-- selection) except for Melbourne while it is not selected, so only Melbourne opens its
-- window: a custom one with an image.
---@type Plugin
local plugin = { name = "marker_events" }

function plugin.did_tap_marker(map, marker)
  map:animate({ target = marker.position, zoom = 8, bearing = 50, tilt = 60 }, { duration = 3 })
  return not (marker.id == "melbourne" and map.selected_marker ~= marker)
end

function plugin.marker_info_window(map, marker)
  if marker.id == "melbourne" then
    return { image = "Icon", width = 40, height = 40 }
  end
end

return plugin
