import Foundation

extension MapView {
  /// How many markers are on the map.
  public var numberOfMarkers: Int { markerCount }

  /// Every marker on the map, in the order they were added.
  public var markers: [Marker] {
    markerSlots.indices.compactMap { index in markerSlots[index].map { (slotAddOrder[index], $0) } }
      .sorted { $0.0 < $1.0 }.map(\.1)
  }

  /// The marker with this id, if it is on the map.
  public func marker(id: String) -> Marker? {
    if let marker = markersByID[id] { return marker }
    guard id.hasPrefix("marker-"), let serial = Int(id.dropFirst(7)), serial >= 1, serial <= slotOfSerial.count
    else { return nil }
    let slot = Int(slotOfSerial[serial - 1])
    guard slot >= 0, let marker = markerSlots[slot], marker.origin == mapNumber, marker.id == id
    else { return nil }
    return marker
  }

  /// Creates a marker from `options` and shows it on this map (R1, R2).
  ///
  /// Throws if a value is out of its domain or the id is already used on this map; nothing
  /// is added then.
  @discardableResult
  public func addMarker(_ options: MarkerOptions) throws(MapError) -> Marker {
    let options = try options.validated()
    if let id = options.id, marker(id: id) != nil {
      throw .invalidValue(
        field: "marker.id", value: "\"\(id)\"", reason: "is already used by another marker on this map")
    }
    let marker = Marker(serial: nextMarkerSerial, origin: mapNumber, options: options)
    nextMarkerSerial += 1
    slotOfSerial.append(-1)
    insert(marker)
    return marker
  }

  /// Shows a marker that was removed from this or another map (R2).
  ///
  /// Throws if it is on another map now, or its id is used by another marker here.
  public func add(_ marker: Marker) throws(MapError) {
    if marker.map === self { return }
    if marker.map != nil { throw .markerOnAnotherMap(marker: marker.id) }
    if let other = self.marker(id: marker.id), other !== marker {
      throw .invalidValue(
        field: "marker.id", value: "\"\(marker.id)\"", reason: "is already used by another marker on this map")
    }
    insert(marker)
  }

  private func insert(_ marker: Marker) {
    let slot: Int32
    if let free = freeSlots.popLast() {
      slot = free
      markerSlots[Int(slot)] = marker
      slotAddOrder[Int(slot)] = nextAddOrder
    } else {
      slot = Int32(markerSlots.count)
      markerSlots.append(marker)
      slotAddOrder.append(nextAddOrder)
    }
    nextAddOrder += 1
    marker.slot = slot
    marker.map = self
    markerCount += 1
    if marker.hasExplicitID || marker.origin != mapNumber {
      markersByID[marker.id] = marker
    } else {
      slotOfSerial[marker.serial - 1] = slot
    }
    let world = Mercator.worldPoint(marker.position)
    markerIndex.insert(slot, x: world.x, y: world.y)
    iconExtent.include(marker)
    notify(.markerAdded(marker))
  }

  /// Removes a marker (R2); if it was selected, its window closes (R12): the marker is off the
  /// map before the callbacks run (did_close_info_window, a running drag's
  /// did_end_dragging_marker, an animation's completion with false), so they may change the
  /// map freely. While an info window is being resolved, the removal waits until the
  /// resolution ends (R13).
  public func remove(_ marker: Marker) throws(MapError) {
    guard marker.map === self else { throw .notOnThisMap(what: "marker \(marker.id)") }
    if deferIfResolving("remove marker \(marker.id)", { [weak self] in try? self?.remove(marker) }) { return }
    let wasSelected = selectedMarker === marker
    let wasDragged = drag?.marker === marker
    if wasDragged { drag = nil }
    let animation = markerAnimations.removeValue(forKey: ObjectIdentifier(marker))
    detach(marker)
    if wasSelected, selectedMarker === marker { deselect() }
    if wasDragged { endDrag(marker) }
    animation?.completion?(false)
  }

  /// Takes a marker out of the map's storage and index.
  private func detach(_ marker: Marker) {
    let slot = Int(marker.slot)
    markerIndex.remove(marker.slot)
    markerSlots[slot] = nil
    freeSlots.append(marker.slot)
    if markersByID[marker.id] === marker { markersByID[marker.id] = nil }
    if marker.origin == mapNumber { slotOfSerial[marker.serial - 1] = -1 }
    markerCount -= 1
    marker.slot = -1
    marker.map = nil
    notify(.markerRemoved(marker))
  }

  /// Removes every marker and overlay (R2); the selected marker's window closes (R12), after
  /// everything is off the map.
  public func clear() {
    if deferIfResolving("clear", { [weak self] in self?.clear() }) { return }
    let dragged = drag?.marker
    drag = nil
    let animations = markerAnimations.values.sorted { $0.marker.serial < $1.marker.serial }
    markerAnimations.removeAll()
    let removed = observers.isEmpty ? [] : markers
    for case let marker? in markerSlots {
      marker.slot = -1
      marker.map = nil
    }
    markerSlots.removeAll()
    slotAddOrder.removeAll()
    freeSlots.removeAll()
    markersByID.removeAll()
    for index in slotOfSerial.indices { slotOfSerial[index] = -1 }
    markerIndex.removeAll()
    markerCount = 0
    iconExtent = IconExtent()
    for marker in removed { notify(.markerRemoved(marker)) }
    for overlay in overlays { overlay.map = nil }
    overlays.removeAll()
    deselect()
    if let dragged { endDrag(dragged) }
    for animation in animations { animation.completion?(false) }
  }

  /// Called by a marker after ``Marker/update(_:)`` applied new options.
  func markerDidChange(_ marker: Marker, from old: MarkerOptions) {
    if old.position != marker.position { reindex(marker) }
    iconExtent.include(marker)
    notify(.markerChanged(marker))
    if let window = infoWindow, window.marker === marker, window.kind == .default,
      old.title != marker.title || old.snippet != marker.snippet
    {
      refreshDefaultWindow(of: marker)
    }
  }

  /// Called when a drag or an animation moved a marker: keeps the spatial index exact.
  func markerDidMove(_ marker: Marker) {
    reindex(marker)
    notify(.markerMoved(marker))
  }

  /// Moves a marker's entry in the spatial index to its position.
  private func reindex(_ marker: Marker) {
    let world = Mercator.worldPoint(marker.position)
    markerIndex.move(marker.slot, x: world.x, y: world.y)
  }

  /// Animates a marker's position (S3) on the virtual clock, at constant speed by default.
  ///
  /// A new animation of the same marker replaces the running one from where the marker is
  /// (its completion gets false). Removing the marker stops it (completion false).
  public func animate(
    _ marker: Marker, to position: Coordinate, duration: Double, easing: Easing = .linear,
    completion: ((Bool) -> Void)? = nil
  ) throws(MapError) {
    guard marker.map === self else { throw .notOnThisMap(what: "marker \(marker.id)") }
    let position = try position.validated("position")
    try MapError.requireNonNegative(duration, "duration")
    let replaced = markerAnimations[ObjectIdentifier(marker)]
    markerAnimations[ObjectIdentifier(marker)] = MarkerAnimation(
      marker: marker, from: Mercator.worldPoint(marker.position), to: position, start: clock.now,
      duration: duration, easing: easing, completion: completion)
    scheduleFrame()
    replaced?.completion?(false)
  }
}

/// How far icons reach from their anchors on the screen, in points, in each direction: the
/// largest over every marker the map has held (it never shrinks until `clear()`). A tap
/// can only hit markers whose anchors lie within this reach of it.
struct IconExtent {
  var left = 0.0
  var right = 0.0
  var up = 0.0
  var down = 0.0

  /// The farthest an icon can reach from its anchor, in points: beyond any position a tap
  /// accepts (``Point/largestMagnitude``), so larger (or infinite) reaches change nothing.
  static let largestReach = 1e7

  /// Grows to cover `marker`'s icon: its rectangle if upright, else the circle it turns in.
  mutating func include(_ marker: Marker) {
    defer {
      left = min(left, Self.largestReach)
      right = min(right, Self.largestReach)
      up = min(up, Self.largestReach)
      down = min(down, Self.largestReach)
    }
    let size = marker.iconSize, anchor = marker.groundAnchor
    if marker.rotation == 0 && !marker.flat {
      left = max(left, anchor.x * size.width, 0)
      right = max(right, (1 - anchor.x) * size.width, 0)
      up = max(up, anchor.y * size.height, 0)
      down = max(down, (1 - anchor.y) * size.height, 0)
    } else {
      let dx = max(abs(anchor.x), abs(1 - anchor.x)) * size.width
      let dy = max(abs(anchor.y), abs(1 - anchor.y)) * size.height
      let reach = (dx * dx + dy * dy).squareRoot()
      left = max(left, reach)
      right = max(right, reach)
      up = max(up, reach)
      down = max(down, reach)
    }
  }
}

/// Where a marker's icon is on the screen (R4): the rectangle hit-testing tests is the one
/// renderers draw.
package enum MarkerGeometry {
  /// The screen angle of the icon in degrees: its rotation, and for flat markers also the
  /// map's bearing (R4).
  package static func angle(of marker: Marker, bearing: Double) -> Double {
    marker.flat ? marker.rotation - bearing : marker.rotation
  }

  /// The screen point of a point of the icon given in unit coordinates (0,0 top-left).
  package static func point(_ unit: Point, of marker: Marker, at anchorPoint: Point, bearing: Double) -> Point {
    let size = marker.iconSize
    let dx = (unit.x - marker.groundAnchor.x) * size.width
    let dy = (unit.y - marker.groundAnchor.y) * size.height
    let radians = angle(of: marker, bearing: bearing) * .pi / 180
    let c = cos(radians), s = sin(radians)
    return Point(x: anchorPoint.x + dx * c - dy * s, y: anchorPoint.y + dx * s + dy * c)
  }

  /// The smallest upright screen rectangle holding the icon, placed and rotated.
  package static func bounds(of marker: Marker, at anchorPoint: Point, bearing: Double) -> Rect {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    for corner in [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 1)] {
      let p = point(corner, of: marker, at: anchorPoint, bearing: bearing)
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
    }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// Whether `tap` falls on the icon's rectangle, placed by the anchor and rotated (R4).
  static func contains(_ tap: Point, marker: Marker, at anchorPoint: Point, bearing: Double) -> Bool {
    let size = marker.iconSize
    let radians = -angle(of: marker, bearing: bearing) * .pi / 180
    let c = cos(radians), s = sin(radians)
    let dx = tap.x - anchorPoint.x, dy = tap.y - anchorPoint.y
    let ux = (dx * c - dy * s) / max(size.width, .leastNonzeroMagnitude) + marker.groundAnchor.x
    let uy = (dx * s + dy * c) / max(size.height, .leastNonzeroMagnitude) + marker.groundAnchor.y
    return ux >= 0 && ux <= 1 && uy >= 0 && uy <= 1
  }
}
