extension MapView {
  // MARK: What is where on the screen (R4, R16, R32)

  /// The screen point where a marker's ground anchor stands, or nil beyond the horizon.
  package func screenPoint(of marker: Marker) -> Point? { projection.point(for: marker.position) }

  /// The centre of a marker's icon on the screen: where a finger taps it.
  package func iconCenter(of marker: Marker) -> Point? {
    guard let anchor = screenPoint(of: marker) else { return nil }
    return MarkerGeometry.point(
      Point(x: 0.5, y: 0.5), of: marker, at: anchor, bearing: flatMarkerBearing,
      foreshortening: flatMarkerForeshortening)
  }

  /// What hit-testing markers needs of the map now.
  private var hitTestContext: MarkerStore.HitTestContext {
    MarkerStore.HitTestContext(
      projection: projection, flatMarkerBearing: flatMarkerBearing, flatMarkerForeshortening: flatMarkerForeshortening,
      tapsTransparentMarkers: policy.tapTransparentMarkers, skipsAppearing: appearingMarkerFilter)
  }

  /// Every tappable marker whose icon covers `point`, topmost first: highest z-index, then
  /// most recently added (R4). Uses the spatial index: only markers near the point are tested.
  func markers(at point: Point) -> [Marker] {
    let context = hitTestContext
    return store.markers(at: point, context)
  }

  /// The topmost tappable marker at `point` (R4), or nil.
  package func topmostMarker(at point: Point) -> Marker? {
    let context = hitTestContext
    return store.topmostMarker(at: point, context)
  }

  /// Every marker whose icon reaches into the screen rectangle `rect`, in the order they are
  /// drawn: lowest z-index first, then in order of addition, so the last is on top and wins
  /// a tap where icons overlap (R4). Markers beyond the horizon are left out; invisible
  /// (opacity 0) and untappable markers are included. Uses the spatial index: the cost
  /// follows the markers near the rectangle, not the markers on the map.
  package func markers(in rect: Rect) -> [Marker] {
    store.markers(in: rect, hitTestContext)
  }

  /// The device location, if `point` falls on the my-location dot (R32).
  func myLocation(at point: Point) -> Coordinate? {
    guard places.isMyLocationEnabled else { return nil }  // no projection for a hidden dot
    return places.myLocation(at: point, projection: projection, radius: policy.myLocationTapRadius)
  }

  /// The shown info window's rectangle on the screen (its body, tail excluded), or nil.
  package var infoWindowFrame: Rect? {
    // The window's parts are read in place, not copied: every tap asks (R16).
    guard let body = selection.infoWindow?.layout.bodyRect, let anchor = selection.infoWindow?.layout.anchor
    else { return nil }
    let anchorPoint: Point
    if let marker = selection.infoWindow?.marker {
      // The centring that showed the window projected the marker already, most often.
      guard let ground = projection.point(forWorld: cameraController.worldPoints.worldPoint(marker.position)) else {
        return nil
      }
      anchorPoint = MarkerGeometry.point(
        marker.infoWindowAnchor, of: marker, at: ground, bearing: flatMarkerBearing,
        foreshortening: flatMarkerForeshortening)
    } else if let location = selection.infoWindow?.pointOfInterest?.location, let at = projection.point(for: location) {
      anchorPoint = at
    } else {
      return nil
    }
    return body.offsetBy(dx: anchorPoint.x - anchor.x, dy: anchorPoint.y - anchor.y)
  }
}
