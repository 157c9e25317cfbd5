-- "Zoom in on tap" for clustered maps (map:clusters{}, rules R71-R72 of docs/semantics.md).
-- Google Maps Utils never moves the camera on its own: an app that wants a tap on a cluster
-- to open it up handles clusterManager:didTapCluster: and returns YES. This plugin does so:
-- the camera animates to fit the cluster's items, or, when they all stand on one point,
-- one zoom level in at the cluster; returning true consumes the tap, so no cluster marker
-- is ever selected. Taps on items' markers fall through to did_tap_marker and the default.
---@type Plugin
local plugin = { name = "cluster_zoom", priority = 10 }

--- Whether every item stands where the first one does.
---@param items ClusterItem[]
---@return boolean
local function on_one_point(items)
  local first = items[1].position
  for _, item in ipairs(items) do
    if item.position.lat ~= first.lat or item.position.lng ~= first.lng then return false end
  end
  return true
end

function plugin.did_tap_cluster(map, cluster)
  if on_one_point(cluster.items) then
    local zoom = math.min(map.camera.zoom + 1, map.max_zoom)
    map:animate({ target = cluster.position, zoom = zoom }, { duration = 0.5 })
    print(string.format("cluster of %d on one point: zoom %.1f", cluster.count, zoom))
  else
    local positions = {}
    for i, item in ipairs(cluster.items) do positions[i] = item.position end
    map:animate({ fit = positions, padding = 48 }, { duration = 0.5 })
    print(string.format("cluster of %d: fitting its items", cluster.count))
  end
  return true
end

return plugin
