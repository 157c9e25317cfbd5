-- A store locator (issue 34): 45 stores in three neighbourhoods of Rome, clustered as
-- Google Maps Utils clusters them (map:clusters{}, R60-R64), with the example plugin
-- cluster_zoom: a tap on a cluster zooms in to fit its stores (did_tap_cluster returns
-- true, R71); a tap on a store's own marker goes on to the default and opens its window.
local map = waymark.map{
  camera = { target = { lat = 41.896, lng = 12.478 }, zoom = 11 },
  plugins = { "../plugins/cluster_zoom" },
}
local stores = map:clusters{}
local neighbourhoods = {
  { name = "trastevere", lat = 41.8867, lng = 12.4692 },
  { name = "monti", lat = 41.8950, lng = 12.4930 },
  { name = "prati", lat = 41.9075, lng = 12.4620 },
}
local items = {}
for _, place in ipairs(neighbourhoods) do
  for i = 1, 15 do
    -- A sunflower of stores around the neighbourhood's centre: spread evenly, no randomness.
    local angle, radius = i * 2.399963, 0.0008 * math.sqrt(i)
    items[#items + 1] = {
      id = place.name .. "-" .. i,
      position = { lat = place.lat + radius * math.cos(angle), lng = place.lng + radius * math.sin(angle) },
      title = "Store " .. i,
      snippet = place.name,
    }
  end
end
stores:add(items)
stores:cluster()

--- The marker of the rendered cluster holding the item with this id, or nil.
local function cluster_marker_of(id)
  for _, marker in ipairs(stores:markers()) do
    for _, item in ipairs(marker.cluster and marker.cluster.items or {}) do
      if item.id == id then return marker end
    end
  end
end

-- At zoom 11 the three neighbourhoods are a few points apart: one cluster of 45.
expect_eq(#stores:markers(), 1)
expect_eq(stores:markers()[1].cluster.count, 45)

-- A tap on it fits the 45 stores: the neighbourhoods come apart, 15 stores each.
map:tap(stores:markers()[1])
map:settle()
expect(map.selected_marker == nil, "cluster_zoom consumed the tap")
expect(map.camera.zoom > 13, "the camera zoomed in to fit the stores")
expect_eq(#stores:markers(), 3)
for _, marker in ipairs(stores:markers()) do expect_eq(marker.cluster.count, 15) end

-- A tap on Monti's cluster fits its stores: some stand alone now, as their own markers.
local zoom = map.camera.zoom
map:tap(cluster_marker_of("monti-1"))
map:settle()
expect(map.camera.zoom > zoom + 1, "the camera zoomed in again")
local store
for _, marker in ipairs(stores:markers()) do
  if marker.cluster_item and not store then store = marker end
end
expect(store ~= nil, "some stores stand alone")

-- A store's own marker is tapped as any marker: selected, its window shows its title.
map:tap(store)
map:settle()
expect(map.selected_marker == store)
expect_eq(store.title, store.cluster_item.title)
expect_eq(map.info_window.kind, "default")
