/// Where a rendering's clusters stand, so that a camera move asks only the clusters near the
/// view: GMUDefaultClusterRenderer's `update` looks at every cluster, and 100,000 items make
/// thousands of them at a city's zoom (docs/performance.md, `cluster_zoom_frame`).
struct ClusterPlaces {
  private var index = SpatialIndex()
  /// How far, in degrees of latitude and of longitude, any item lies from its cluster's
  /// position (degrees: no projection of every item).
  private var latitudeReach = 0.0
  private var longitudeReach = 0.0

  /// The places of `clusters`, each by its position in the list.
  init(_ clusters: [Cluster]) {
    for (slot, cluster) in clusters.enumerated() {
      let center = Mercator.worldPoint(cluster.position)
      index.insert(Int32(slot), x: center.x, y: center.y)
      let position = cluster.position
      for item in cluster.items {
        latitudeReach = max(latitudeReach, abs(item.position.latitude - position.latitude))
        longitudeReach = max(longitudeReach, abs(item.position.longitude - position.longitude))
      }
    }
    // The first query sorts the additions into the tree: here, in the clustering, not in a frame.
    index.forEach(inMinX: 0, minY: 0, maxX: 0, maxY: 0) { _ in }
  }

  /// The positions in the list, in order, of the clusters whose position or some item may
  /// be inside `bounds`; nil when every cluster must be looked at (bounds that cross the
  /// antimeridian, or items spread so far that the search would).
  mutating func slots(near bounds: CoordinateBounds) -> [Int]? {
    guard let northEast = bounds.northEast, let southWest = bounds.southWest,
      southWest.longitude <= northEast.longitude
    else { return nil }
    // A cluster with an item in the bounds stands in the bounds grown by the reach.
    let west = southWest.longitude - longitudeReach
    let east = northEast.longitude + longitudeReach
    guard west > -180, east < 180 else { return nil }
    let northWest = Mercator.worldPoint(
      Coordinate(latitude: min(northEast.latitude + latitudeReach, 90), longitude: west))
    let southEast = Mercator.worldPoint(
      Coordinate(latitude: max(southWest.latitude - latitudeReach, -90), longitude: east))
    var slots: [Int] = []
    index.forEach(inMinX: northWest.x, minY: northWest.y, maxX: southEast.x, maxY: southEast.y) {
      slots.append(Int($0))
    }
    return slots.sorted()
  }
}
