/// How a tap or a rectangle finds markers (R4) through the spatial index: only the markers
/// whose anchors lie in the ground area that icons could reach the point from
/// (``IconExtent``) are tested exactly, so the cost follows the markers near the point, not
/// the markers on the map.
extension MarkerStore {
  /// What a hit test needs of the map: where the camera looks, the bearing flat markers turn
  /// with, and whether invisible markers can be tapped (R4).
  struct HitTestContext {
    let projection: Projection
    let flatMarkerBearing: Double
    /// How a flat marker's box is foreshortened on the tilted ground (R44).
    var flatMarkerForeshortening = 1.0
    let tapsTransparentMarkers: Bool
    /// Whether a tap skips a marker because it is appearing (R45); nil when none is skipped.
    var skipsAppearing: ((Marker) -> Bool)? = nil
  }

  /// The topmost tappable marker at `point` (R4): highest z-index, then most recently added.
  mutating func topmostMarker(at point: Point, _ context: HitTestContext) -> Marker? {
    var best: Marker?
    var bestSlot: Int32 = -1
    let zIndicesVary = self.zIndicesVary
    // While every z-index is 0, the candidates come latest first and the first hit wins.
    visitHits(at: point, context, latestFirst: !zIndicesVary) { marker, slot in
      if let current = best, (marker.zIndex, slot) < (current.zIndex, bestSlot) { return true }
      best = marker
      bestSlot = slot
      return zIndicesVary
    }
    return best
  }

  /// Every tappable marker whose icon covers `point`, topmost first (R4).
  mutating func markers(at point: Point, _ context: HitTestContext) -> [Marker] {
    var hits: [(marker: Marker, slot: Int32)] = []
    visitHits(at: point, context, latestFirst: false) { marker, slot in
      hits.append((marker, slot))
      return true
    }
    hits.sort { ($0.marker.zIndex, $0.slot) > ($1.marker.zIndex, $1.slot) }
    return hits.map(\.marker)
  }

  /// Calls `body` with each tappable marker whose icon covers `point`, and its slot, until
  /// it returns false; `latestFirst` hands them in decreasing slot order.
  ///
  /// The index hands each anchor in the search box with the cell it keeps; an anchor whose
  /// cell puts it, by more than the cell's size, beyond the reach of every icon
  /// (``IconExtent``) from the point is left out without reading its marker. The others
  /// are tested exactly.
  private mutating func visitHits(
    at point: Point, _ context: HitTestContext, latestFirst: Bool, _ body: (Marker, Int32) -> Bool
  ) {
    guard count > 0 else { return }
    let projection = context.projection
    let spot = Rect(x: point.x, y: point.y, width: 0, height: 0)
    guard let box = Self.searchBox(around: spot, extent: iconExtent, projection: projection) else { return }
    var found = candidates
    candidates = []
    let extent = iconExtent
    index.forEachPoint(inMinX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) { slot, x, y in
      if let (anchor, error) = projection.approximatePoint(forWorld: WorldPoint(x: x, y: y), within: 0x1p-32),
        point.x < anchor.x - extent.left - error || point.x > anchor.x + extent.right + error
          || point.y < anchor.y - extent.up - error || point.y > anchor.y + extent.down + error
      {
        return
      }
      found.append((slot, x, y))
    }
    if latestFirst { Self.sortLatestFirst(&found) }
    let slots = self.slots
    for candidate in found {
      guard let marker = slots[Int(candidate.slot)], marker.tappable else { continue }
      if !context.tapsTransparentMarkers && marker.opacity == 0 { continue }
      if let skips = context.skipsAppearing, skips(marker) { continue }
      guard let anchor = projection.point(for: marker.position),
        MarkerGeometry.contains(
          point, marker: marker, at: anchor, bearing: context.flatMarkerBearing,
          foreshortening: context.flatMarkerForeshortening)
      else { continue }
      if !body(marker, candidate.slot) { break }
    }
    found.removeAll(keepingCapacity: true)
    candidates = found
  }

  /// Sorts a tap's few candidates by decreasing slot (an insertion sort: there are a handful).
  private static func sortLatestFirst(_ candidates: inout [(slot: Int32, x: Double, y: Double)]) {
    guard candidates.count > 1 else { return }
    for i in 1..<candidates.count {
      let item = candidates[i]
      var j = i
      while j > 0 && candidates[j - 1].slot < item.slot {
        candidates[j] = candidates[j - 1]
        j -= 1
      }
      candidates[j] = item
    }
  }

  /// Every marker whose icon reaches into the screen rectangle `rect`, in drawing order:
  /// lowest z-index first, then in order of addition. Markers beyond the horizon are left
  /// out; invisible and untappable ones are included.
  mutating func markers(in rect: Rect, _ context: HitTestContext) -> [Marker] {
    guard count > 0 else { return [] }
    let projection = context.projection
    guard let box = Self.searchBox(around: rect, extent: iconExtent, projection: projection) else { return [] }
    var found: [(marker: Marker, slot: Int32)] = []
    let slots = self.slots
    index.forEach(inMinX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) { slot in
      guard let marker = slots[Int(slot)], let anchor = projection.point(for: marker.position) else { return }
      let bounds = MarkerGeometry.bounds(
        of: marker, at: anchor, bearing: context.flatMarkerBearing, foreshortening: context.flatMarkerForeshortening)
      guard bounds.maxX >= rect.minX, bounds.minX <= rect.maxX, bounds.maxY >= rect.minY, bounds.minY <= rect.maxY
      else { return }
      found.append((marker, slot))
    }
    found.sort { ($0.marker.zIndex, $0.slot) < ($1.marker.zIndex, $1.slot) }
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
    let xs = (rect.minX - extent.right - 1, rect.maxX + extent.left + 1)
    let ys = (rect.minY - extent.down - 1, rect.maxY + extent.up + 1)
    if projection.sinTilt == 0 {
      // Untilted, the ground is the screen turned and scaled: the box of the turned
      // rectangle, from its centre and half sides (within rounding of the corners' box,
      // which the point of margin on every side covers).
      let middle = Point(x: (xs.0 + xs.1) / 2, y: (ys.0 + ys.1) / 2)
      guard let world = projection.worldPoint(for: middle) else { return nil }
      let halfWidth = (xs.1 - xs.0) / 2, halfHeight = (ys.1 - ys.0) / 2
      let c = projection.cosBearing.magnitude, s = projection.sinBearing.magnitude
      let dx = (c * halfWidth + s * halfHeight) / projection.scale * (1 + 1e-12)
      let dy = (s * halfWidth + c * halfHeight) / projection.scale * (1 + 1e-12)
      return (
        min(world.x - dx, center.x), min(world.y - dy, center.y), max(world.x + dx, center.x),
        max(world.y + dy, center.y)
      )
    }
    for x in [xs.0, xs.1] {
      for y in [ys.0, ys.1] {
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
}
