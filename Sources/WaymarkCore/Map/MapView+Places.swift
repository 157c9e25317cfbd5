extension MapView {
  // MARK: Points of interest, feature layers, capabilities, my location (R17, R32)

  /// The points of interest of the base map (R17).
  public var pointsOfInterest: [PointOfInterest] { places.pointsOfInterest }

  /// The data-driven styling layers whose features can be tapped (callback 23).
  var featureLayers: [FeatureLayer] { places.featureLayers }

  /// What the map can do (callback 22); assigning other capabilities fires
  /// did_change_map_capabilities.
  public var capabilities: MapCapabilities {
    get { places.capabilities }
    set {
      guard newValue != places.capabilities else { return }
      places.capabilities = newValue
      emit(.didChangeMapCapabilities(newValue))
    }
  }

  /// Whether the my-location dot and button are shown (R32); off by default.
  public var isMyLocationEnabled: Bool {
    get { places.isMyLocationEnabled }
    set {
      let old = places.isMyLocationEnabled
      places.isMyLocationEnabled = newValue
      if newValue != old { notify(.placesChanged) }
    }
  }

  /// The simulated device location (R32, R52): an input, known or not whether or not my
  /// location is on; nil until known.
  public var deviceLocation: Coordinate? {
    get { places.deviceLocation }
    set {
      let old = places.deviceLocation
      places.deviceLocation = newValue
      if newValue != old { notify(.placesChanged) }
    }
  }

  /// What the map reports as the user's location (R52): the device location while my
  /// location is on, nil while it is off or the location is unknown.
  public var myLocation: Coordinate? { isMyLocationEnabled ? places.deviceLocation : nil }

  /// Adds a point of interest to the base map (R17).
  public func addPointOfInterest(_ poi: PointOfInterest) throws(MapError) {
    var poi = poi
    poi.location = try poi.location.validated("poi.location")
    try TextLimits.check(poi.placeID, atMost: TextLimits.name, "poi.placeID")
    try TextLimits.check(poi.name, atMost: TextLimits.name, "poi.name")
    places.pointsOfInterest.append(poi)
    notify(.placesChanged)
  }

  /// Adds a data-driven styling layer whose features can be tapped (callback 23).
  public func addFeatureLayer(_ layer: FeatureLayer) throws(MapError) {
    try TextLimits.check(layer.name, atMost: TextLimits.name, "featureLayer.name")
    for (f, feature) in layer.features.enumerated() {
      try TextLimits.check(feature.placeID, atMost: TextLimits.name, "featureLayer.features[\(f + 1)].placeID")
      for (index, point) in feature.boundary.enumerated() {
        _ = try point.validated("featureLayer.features[\(f + 1)].boundary[\(index + 1)]")
      }
    }
    places.featureLayers.append(layer)
  }

  /// The point of interest nearest to `point` within the policy's reach (R17), or nil.
  package func pointOfInterest(at point: Point) -> PointOfInterest? {
    guard !places.pointsOfInterest.isEmpty else { return nil }  // no projection for none
    return places.pointOfInterest(at: point, projection: projection, radius: policy.poiTapRadius)
  }
}
