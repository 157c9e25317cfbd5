extension MapView {
  // MARK: Markers (R1, R2, R12, R13)

  /// How many markers are on the map.
  package var numberOfMarkers: Int { store.count }

  /// Every marker on the map, in the order they were added. Each read builds the array in
  /// one pass over the map's marker slots (no sort): read it once, not per marker.
  public var markers: [Marker] { store.markers }

  /// The marker with this id, if it is on the map.
  public func marker(id: String) -> Marker? { store.marker(id: id) }

  /// The ids ``marker(id:)`` finds through an index: explicit ids, and the ids of markers
  /// another map created. Every other id it finds is generated (``Marker/generatedIDPrefix``).
  package var indexedMarkerIDs: Dictionary<String, Marker>.Keys { store.indexedIDs }

  /// Creates a marker from `options` and shows it on this map (R1, R2).
  ///
  /// Throws if a value is out of its domain or the id is already used on this map; nothing
  /// is added then.
  @discardableResult
  public func addMarker(_ options: consuming MarkerOptions) throws(MapError) -> Marker {
    try options.validate()
    if let id = options.id, marker(id: id) != nil {
      throw .invalidValue(
        field: "marker.id", value: "\"\(id)\"", reason: "is already used by another marker on this map")
    }
    return addChecked(options)
  }

  /// ``addMarker(_:)`` of options the caller has validated, whose id no marker on the map
  /// has: what adds many markers after checking them all, so that none is added when one is
  /// wrong, without checking each twice.
  package func addChecked(_ options: consuming MarkerOptions) -> Marker {
    let appears = options.appearAnimation != .none  // read before the options are consumed
    let marker = store.add(options)
    if appears { startAppearing(marker) }
    notify(.markerAdded(marker))
    return marker
  }

  /// Makes room for `count` more markers, `withIDs` of them with explicit ids: what a caller
  /// about to add many with ``addChecked(_:)`` calls first.
  package func reserveCapacity(forMoreMarkers count: Int, withIDs ids: Int) {
    store.reserveCapacity(forMore: count, withIDs: ids)
  }

  /// The serial ``addMarker(_:)`` gives the next marker it creates: what a caller that keys
  /// markers by serial reads before adding one, where the marker itself, while at its
  /// defaults, finds its serial through the spatial index.
  package var nextMarkerSerial: Int { store.nextSerial }

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
    store.insert(marker)
    marker.map = self
    startAppearing(marker)
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
    let wasDragged = cameraController.drag?.marker === marker
    if wasDragged { cameraController.drag = nil }
    let animation = cameraController.markerAnimations.removeValue(forKey: ObjectIdentifier(marker))
    store.remove(marker)
    marker.map = nil
    notify(.markerRemoved(marker))
    if wasSelected, selectedMarker === marker { deselect() }
    if wasDragged { endDrag(marker) }
    animation?.completion?(false)
  }

  /// Removes every marker and overlay (R2); the selected marker's window closes (R12), after
  /// everything is off the map.
  public func clear() {
    if deferIfResolving("clear", { [weak self] in self?.clear() }) { return }
    let dragged = cameraController.drag?.marker
    cameraController.drag = nil
    let animations = cameraController.markerAnimationsInSerialOrder.map(\.animation)
    cameraController.markerAnimations.removeAll()
    let removed = store.removeAll()
    for marker in removed { marker.map = nil }
    for marker in removed { notify(.markerRemoved(marker)) }
    let overlays = overlayStore.removeAll()
    for overlay in overlays { overlay.map = nil }
    if !overlays.isEmpty { notify(.overlaysChanged) }
    deselect()
    if let dragged { endDrag(dragged) }
    for animation in animations { animation.completion?(false) }
  }

  /// Called by a marker after ``Marker/update(_:)`` applied new options. An open default
  /// window keeps the content and frame it was shown with (R7) unless the marker tracks info
  /// window changes: then a new title or snippet shows at once.
  func markerDidChange(_ marker: Marker, from old: MarkerOptions) {
    if old.position != marker.position { store.didMove(marker, from: old.position) }
    store.didChangeIcon(of: marker)
    notify(.markerChanged(marker))
    if marker.tracksInfoWindowChanges, let window = infoWindow, window.marker === marker, window.kind == .default,
      old.title != marker.title || old.snippet != marker.snippet
    {
      refreshDefaultWindow(of: marker)
    }
    if old.tracksInfoWindowChanges != marker.tracksInfoWindowChanges
      || old.tracksViewChanges != marker.tracksViewChanges
    {
      trackingDidChange(of: marker, from: old)
    }
  }

  /// Called when a drag or an animation moved a marker from `old`: keeps the spatial index
  /// exact.
  func markerDidMove(_ marker: Marker, from old: Coordinate) {
    store.didMove(marker, from: old)
    notify(.markerMoved(marker))
  }
}
