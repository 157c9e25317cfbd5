extension MapView {
  /// The bearing flat markers turn with on the screen: the camera's, unless the policy says
  /// they do not follow it (R4).
  package var flatMarkerBearing: Double { policy.flatMarkersFollowBearing ? camera.bearing : 0 }

  /// The screen point where a marker's ground anchor stands, or nil beyond the horizon.
  public func screenPoint(of marker: Marker) -> Point? { projection.point(for: marker.position) }

  /// The centre of a marker's icon on the screen: where a finger taps it.
  public func iconCenter(of marker: Marker) -> Point? {
    guard let anchor = screenPoint(of: marker) else { return nil }
    return MarkerGeometry.point(Point(x: 0.5, y: 0.5), of: marker, at: anchor, bearing: flatMarkerBearing)
  }

  /// Every tappable marker whose icon covers `point`, topmost first: highest z-index, then
  /// most recently added (R4). Uses the spatial index: only markers near the point are tested.
  public func markers(at point: Point) -> [Marker] {
    var hits: [(marker: Marker, order: Int)] = []
    visitMarkers(at: point) { marker, slot in hits.append((marker, slotAddOrder[slot])) }
    hits.sort { ($0.marker.zIndex, $0.order) > ($1.marker.zIndex, $1.order) }
    return hits.map(\.marker)
  }

  /// The topmost tappable marker at `point` (R4), or nil.
  public func topmostMarker(at point: Point) -> Marker? {
    var best: Marker?
    var bestOrder = Int.min
    visitMarkers(at: point) { marker, slot in
      let order = slotAddOrder[slot]
      if let current = best, (marker.zIndex, order) < (current.zIndex, bestOrder) { return }
      best = marker
      bestOrder = order
    }
    return best
  }

  /// Calls `body` with each tappable marker whose icon covers `point`.
  ///
  /// The spatial index yields the markers whose anchors lie in the ground area that icons
  /// could reach the point from (``IconExtent``); only those are tested exactly.
  private func visitMarkers(at point: Point, _ body: (Marker, Int) -> Void) {
    guard markerCount > 0 else { return }
    let projection = self.projection
    let spot = Rect(x: point.x, y: point.y, width: 0, height: 0)
    guard let box = Self.searchBox(around: spot, extent: iconExtent, projection: projection) else { return }
    var candidates = hitCandidates
    hitCandidates = []
    markerIndex.forEach(inMinX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) { candidates.append($0) }
    let slots = markerSlots
    let bearing = flatMarkerBearing
    let transparentTappable = policy.tapTransparentMarkers
    for slot in candidates {
      guard let marker = slots[Int(slot)], marker.tappable else { continue }
      if !transparentTappable && marker.opacity == 0 { continue }
      guard let anchor = projection.point(for: marker.position),
        MarkerGeometry.contains(point, marker: marker, at: anchor, bearing: bearing)
      else { continue }
      body(marker, Int(slot))
    }
    candidates.removeAll(keepingCapacity: true)
    hitCandidates = candidates
  }

  /// Every marker whose icon reaches into the screen rectangle `rect`, in the order they are
  /// drawn: lowest z-index first, then in order of addition, so the last is on top and wins
  /// a tap where icons overlap (R4). Markers beyond the horizon are left out; invisible
  /// (opacity 0) and untappable markers are included. Uses the spatial index: the cost
  /// follows the markers near the rectangle, not the markers on the map.
  public func markers(in rect: Rect) -> [Marker] {
    guard markerCount > 0 else { return [] }
    let projection = self.projection
    guard let box = Self.searchBox(around: rect, extent: iconExtent, projection: projection) else { return [] }
    var found: [(marker: Marker, order: Int)] = []
    let bearing = flatMarkerBearing
    markerIndex.forEach(inMinX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) { slot in
      guard let marker = markerSlots[Int(slot)], let anchor = projection.point(for: marker.position) else { return }
      let bounds = MarkerGeometry.bounds(of: marker, at: anchor, bearing: bearing)
      guard bounds.maxX >= rect.minX, bounds.minX <= rect.maxX, bounds.maxY >= rect.minY, bounds.minY <= rect.maxY
      else { return }
      found.append((marker, slotAddOrder[Int(slot)]))
    }
    found.sort { ($0.marker.zIndex, $0.order) < ($1.marker.zIndex, $1.order) }
    return found.map(\.marker)
  }

  /// The world box holding every anchor from which an icon could reach into `rect`: the
  /// screen rectangle the icons' extents allow around it, mapped to the ground.
  private static func searchBox(around rect: Rect, extent: IconExtent, projection: Projection)
    -> (minX: Double, minY: Double, maxX: Double, maxY: Double)?
  {
    let point = Point(x: rect.midX, y: rect.midY)
    guard let center = projection.worldPoint(for: point) else { return nil }
    var box = (minX: center.x, minY: center.y, maxX: center.x, maxY: center.y)
    let xs = [rect.minX - extent.right - 1, rect.maxX + extent.left + 1]
    let ys = [rect.minY - extent.down - 1, rect.maxY + extent.up + 1]
    for x in xs {
      for y in ys {
        // Above the horizon the ground is infinitely far: fall back to a generous box.
        let corner =
          projection.worldPoint(for: Point(x: x, y: y))
          ?? WorldPoint(
            x: center.x + 4 * (x - point.x) / projection.scale, y: center.y + 4 * (y - point.y) / projection.scale)
        box.minX = min(box.minX, corner.x)
        box.maxX = max(box.maxX, corner.x)
        box.minY = min(box.minY, corner.y)
        box.maxY = max(box.maxY, corner.y)
      }
    }
    return box
  }

  /// The topmost tappable overlay at `point` (R15): highest z-index, then most recently added.
  public func topmostOverlay(at point: Point) -> Overlay? {
    guard let coordinate = projection.coordinate(for: point) else { return nil }
    let projection = self.projection
    var best: Overlay?
    for overlay in overlays where overlay.tappable {
      if let current = best, overlay.zIndex < current.zIndex { continue }
      if OverlayHitTest.hits(
        overlay.shape, at: point, coordinate: coordinate, projection: projection, tolerance: policy.lineTapTolerance)
      {
        best = overlay
      }
    }
    return best
  }

  /// The point of interest nearest to `point` within the policy's reach (R17), or nil.
  public func pointOfInterest(at point: Point) -> PointOfInterest? {
    let projection = self.projection
    var best: (poi: PointOfInterest, distance: Double)?
    for poi in pointsOfInterest {
      guard let at = projection.point(for: poi.location) else { continue }
      let distance = at.distance(to: point)
      if distance <= policy.poiTapRadius, distance < (best?.distance ?? .infinity) { best = (poi, distance) }
    }
    return best?.poi
  }

  /// Whether `point` falls on the my-location dot (R32).
  func hitsMyLocationDot(_ point: Point) -> Bool {
    guard isMyLocationEnabled, let location = myLocation, let at = projection.point(for: location) else { return false }
    return at.distance(to: point) <= policy.myLocationTapRadius
  }

  /// The shown info window's rectangle on the screen (its body, tail excluded), or nil.
  public var infoWindowFrame: Rect? {
    guard let window = infoWindow else { return nil }
    let anchorPoint: Point
    if let marker = window.marker {
      guard let ground = screenPoint(of: marker) else { return nil }
      anchorPoint = MarkerGeometry.point(marker.infoWindowAnchor, of: marker, at: ground, bearing: flatMarkerBearing)
    } else if let poi = window.pointOfInterest, let at = projection.point(for: poi.location) {
      anchorPoint = at
    } else {
      return nil
    }
    let layout = window.layout
    return layout.bodyRect.offsetBy(dx: anchorPoint.x - layout.anchor.x, dy: anchorPoint.y - layout.anchor.y)
  }
}
