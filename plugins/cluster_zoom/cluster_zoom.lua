-- Cluster-style "zoom in on tap": a marker whose user_data says it stands for a cluster
-- ({ cluster = N }) zooms the camera in two levels around it instead of selecting it.
-- Ordinary markers fall through to the next plugin or the default (priority 10: asked first).
---@type Plugin
local plugin = { name = "cluster_zoom", priority = 10 }

function plugin.did_tap_marker(map, marker)
  local data = marker.user_data
  if type(data) ~= "table" or not data.cluster then return nil end
  map:animate({ target = marker.position, zoom = math.min(map.camera.zoom + 2, map.max_zoom) }, { duration = 0.5 })
  print(string.format("cluster of %d: zooming to %.1f", data.cluster, math.min(map.camera.zoom + 2, map.max_zoom)))
  return true
end

return plugin
