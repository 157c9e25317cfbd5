/// What the base map holds besides markers and overlays: points of interest (R17),
/// data-driven styling layers (callback 23), the map's capabilities (callback 22) and the
/// device's location (R32). A part of ``MapView`` (MapView+Places.swift).
struct MapPlaces {
  /// The points of interest, in the order they were added.
  var pointsOfInterest: [PointOfInterest] = []
  /// The layers whose features can be tapped.
  var featureLayers: [FeatureLayer] = []
  /// What the map can do.
  var capabilities: MapCapabilities = []
  /// Whether the my-location dot and button are shown; off by default.
  var isMyLocationEnabled = false
  /// The simulated device location; nil until known.
  var deviceLocation: Coordinate?

  /// The point of interest nearest to `point` within `radius` points (R17), or nil.
  func pointOfInterest(at point: Point, projection: Projection, radius: Double) -> PointOfInterest? {
    var best: (poi: PointOfInterest, distance: Double)?
    for poi in pointsOfInterest {
      guard let at = projection.point(for: poi.location) else { continue }
      let distance = at.distance(to: point)
      if distance <= radius, distance < (best?.distance ?? .infinity) { best = (poi, distance) }
    }
    return best?.poi
  }

  /// The device location if `point` falls within `radius` points of the shown dot (R32).
  func myLocation(at point: Point, projection: Projection, radius: Double) -> Coordinate? {
    guard isMyLocationEnabled, let location = deviceLocation, let at = projection.point(for: location),
      at.distance(to: point) <= radius
    else { return nil }
    return location
  }

  /// Each layer with the features under `coordinate`, for the layers that have any.
  func features(at coordinate: Coordinate) -> [(layer: FeatureLayer, features: [Feature])] {
    featureLayers.compactMap { layer in
      let hit = layer.features.filter { $0.boundary.count >= 3 && OverlayHitTest.ringContains($0.boundary, coordinate) }
      return hit.isEmpty ? nil : (layer, hit)
    }
  }
}
