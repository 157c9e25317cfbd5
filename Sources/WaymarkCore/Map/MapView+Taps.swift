/// Where a finger lands: a screen point, a coordinate (where it is on the screen), a
/// marker (the centre of its icon: whatever is on top there gets the touch), or the shown
/// info window (its middle).
public enum TouchTarget {
  /// A point on the screen.
  case point(Point)
  /// Where the coordinate is on the screen (an error beyond the horizon).
  case coordinate(Coordinate)
  /// The centre of the marker's icon (an error if it is not on this map).
  case marker(Marker)
  /// The middle of the shown info window (an error if none is shown).
  case infoWindow
}

extension MapView {
  // MARK: Taps (R4-R17, R32, R33)

  /// A tap (R4-R17): see `tap(at:)` for what it hits, in order.
  public func tap(_ target: TouchTarget) throws(MapError) {
    try tap(at: try point(of: target, action: "tap"))
  }

  /// A long press (R16, R18, R19): see `longPress(at:)`.
  public func longPress(_ target: TouchTarget) throws(MapError) {
    try longPress(at: try point(of: target, action: "longPress"))
  }

  /// The screen point a touch of `target` lands on.
  private func point(of target: TouchTarget, action: String) throws(MapError) -> Point {
    switch target {
    case .point(let point): return point
    case .coordinate(let coordinate): return try screenPoint(for: coordinate, action: action)
    case .marker(let marker): return try iconPoint(of: marker, action: action)
    case .infoWindow:
      guard let frame = infoWindowFrame else { throw .noInfoWindow(action: "\(action)InfoWindow") }
      return Point(x: frame.midX, y: frame.midY)
    }
  }

  /// A tap at a screen point, resolved in this order: the shown info window (R16), markers
  /// (R4, R5), the my-location dot (R32), tappable overlays (R15), points of interest (R17),
  /// then the map itself (R14), with feature layers reported on the way (callback 23).
  ///
  /// Throws if called from inside a delegate callback, or for a point that is not finite or
  /// lies more than a million points away (``Point/validated(_:)``).
  package func tap(at point: Point) throws(MapError) {
    try requireNoCallbackRunning("tap")
    _ = try point.validated("tap")
    notify(.input(MapInput(kind: .tap, point: point)))
    if let frame = infoWindowFrame, frame.contains(point) {
      if let marker = selection.infoWindow?.marker {
        emit(.didTapInfoWindow(marker))
      }
      return
    }
    let marker = markerForTap(at: point)
    // Markers win over overlays (R5), unless the policy weighs their z-indexes.
    let overlay = marker == nil || !policy.markersAboveOverlays ? topmostOverlay(at: point) : nil
    if let marker, marker.zIndex >= overlay?.zIndex ?? .min {
      tapMarker(marker)
      return
    }
    if let location = myLocation(at: point) {
      emit(.didTapMyLocation(location))
      return
    }
    if let overlay {
      let selected = selectedMarker
      emit(.didTapOverlay(overlay))
      deselectAfterMapTap(ifStill: selected)
      return
    }
    if let poi = pointOfInterest(at: point) {
      tapPointOfInterest(poi)
      return
    }
    guard let coordinate = projection.coordinate(for: point) else { return }
    reportFeatures(at: coordinate)
    let selected = selectedMarker
    emit(.didTapAtCoordinate(coordinate))
    deselectAfterMapTap(ifStill: selected)
  }

  /// A tap where `coordinate` is on the screen (``tap(_:)``).
  package func tap(_ coordinate: Coordinate) throws(MapError) { try tap(.coordinate(coordinate)) }

  /// A tap on the centre of a marker's icon (``tap(_:)``).
  package func tap(_ marker: Marker) throws(MapError) { try tap(.marker(marker)) }

  /// A tap inside the shown info window (``tap(_:)``, R16).
  package func tapInfoWindow() throws(MapError) { try tap(.infoWindow) }

  /// A tap on the my-location button (R32): did_tap_my_location_button; unless handled, the
  /// camera animates to the device location. Nothing happens (but a warning) while my
  /// location is off or unknown.
  public func tapMyLocationButton() throws(MapError) {
    try requireNoCallbackRunning("tapMyLocationButton")
    guard isMyLocationEnabled, let location = myLocation else {
      warn("tap_my_location_button: my location is \(isMyLocationEnabled ? "unknown" : "off"); nothing happens (R32)")
      return
    }
    if !emit(.didTapMyLocationButton).isHandled {
      startAnimation(.change(CameraChange(target: location)), duration: policy.animationDuration, completion: nil)
    }
  }

  /// Whether the compass button shows (R69): enabled in ``settings`` and the bearing not 0.
  public var isCompassShown: Bool { settings.compassButton && camera.bearing != 0 }

  /// A tap on the compass button (R69): the camera animates to bearing 0 (will_move(false),
  /// the policy's animation duration), and the compass hides once the bearing is 0. Nothing
  /// happens (but a warning) while the compass is not shown.
  public func tapCompass() throws(MapError) {
    try requireNoCallbackRunning("tapCompass")
    guard isCompassShown else {
      let why = settings.compassButton ? "the map faces north" : "the compass button is off"
      warn("tap_compass: the compass is not shown (\(why)); nothing happens (R69)")
      return
    }
    startAnimation(.change(CameraChange(bearing: 0)), duration: policy.animationDuration, completion: nil)
  }

  /// The marker a tap at `point` goes to: the topmost (R4), or under the android policy the
  /// next of the overlapping markers after the selected one (R33).
  private func markerForTap(at point: Point) -> Marker? {
    guard policy.cycleOverlappingMarkers else { return topmostMarker(at: point) }
    let projection = self.projection
    let hits = markers(at: point).enumerated().sorted { a, b in
      if a.element.zIndex != b.element.zIndex { return a.element.zIndex > b.element.zIndex }
      let da = projection.point(for: a.element.position)?.distance(to: point) ?? .infinity
      let db = projection.point(for: b.element.position)?.distance(to: point) ?? .infinity
      return da != db ? da < db : a.offset < b.offset
    }.map(\.element)
    if let selected = selectedMarker, let index = hits.firstIndex(where: { $0 === selected }) {
      return hits[(index + 1) % hits.count]
    }
    return hits.first
  }

  /// did_tap_marker and the default behaviour after it (R6, R10, R33), asking first, for a
  /// marker the clustering rendered, did_tap_cluster or did_tap_cluster_item (R71).
  private func tapMarker(_ marker: Marker) {
    if policy.closeWindowBeforeMarkerTap { deselect() }
    if let role = ClusterMarkerRole.of(marker) {
      if let cluster = role.cluster, emit(.didTapCluster(cluster)).isHandled { return }
      if let item = role.item, emit(.didTapClusterItem(item)).isHandled { return }
    }
    let handled = emit(.didTapMarker(marker)).isHandled
    guard !handled, policy.selectOnMarkerTap, marker.isOn(self) else { return }
    if marker === selectedMarker {
      guard policy.retap == .reopen else { return }
    }
    deselect()
    guard marker.isOn(self) else { return }
    select(marker)
    // R13 changes made during the resolution may have moved the selection or the marker.
    if policy.centerOnSelect, selectedMarker === marker, marker.isOn(self) { centerCamera(on: marker) }
  }

  /// A tap on a point of interest (R17; web policy: a default window, R33): the implicit
  /// deselection comes first, so a window the handler opens stays open (R49).
  private func tapPointOfInterest(_ poi: PointOfInterest) {
    if policy.deselectOnPOITap { deselectAfterMapTap(ifStill: selectedMarker) }
    let handled = emit(.didTapPOI(poi)).isHandled
    if policy.showPOIWindow, !handled, let layout = InfoWindowLayout.defaultWindow(title: poi.name, snippet: nil) {
      show(InfoWindow(marker: nil, pointOfInterest: poi, content: nil, layout: layout))
    }
  }

  /// did_tap_features once per feature layer that has features under `coordinate`.
  private func reportFeatures(at coordinate: Coordinate) {
    for (layer, hit) in places.features(at: coordinate) {
      emit(.didTapFeatures(hit, layer: layer, location: coordinate))
    }
  }

  /// The implicit deselection of a tap on the map, an overlay or a POI (R14, R15, R17): it
  /// concerns the marker selected when the finger landed, so a selection the tap's handler
  /// made stands (R49).
  private func deselectAfterMapTap(ifStill selected: Marker?) {
    guard selectedMarker === selected else { return }
    if policy.deselectOnMapTap { deselect() } else if infoWindow?.marker == nil { hideInfoWindow() }
  }

  // MARK: Long press (R16, R18, R19)

  /// A long press at a screen point: inside the shown window, did_long_press_info_window
  /// (R16); on a draggable marker, a drag that does not move (R18); else
  /// did_long_press_at_coordinate (R19).
  package func longPress(at point: Point) throws(MapError) {
    try requireNoCallbackRunning("longPress")
    _ = try point.validated("longPress")
    notify(.input(MapInput(kind: .longPress, point: point)))
    if let frame = infoWindowFrame, frame.contains(point) {
      if let marker = selection.infoWindow?.marker {
        emit(.didLongPressInfoWindow(marker))
      }
      return
    }
    if let marker = topmostMarker(at: point), marker.draggable {
      beginDrag(marker, to: marker.position, duration: 0)
      return
    }
    guard let coordinate = projection.coordinate(for: point) else { return }
    emit(.didLongPressAtCoordinate(coordinate))
  }

  /// A long press where `coordinate` is on the screen (``longPress(_:)``).
  package func longPress(_ coordinate: Coordinate) throws(MapError) { try longPress(.coordinate(coordinate)) }

  /// A long press on the centre of a marker's icon (``longPress(_:)``).
  package func longPress(_ marker: Marker) throws(MapError) { try longPress(.marker(marker)) }

  /// A long press inside the shown info window (``longPress(_:)``, R16).
  package func longPressInfoWindow() throws(MapError) { try longPress(.infoWindow) }

  func screenPoint(for coordinate: Coordinate, action: String) throws(MapError) -> Point {
    let coordinate = try coordinate.validated(action)
    guard let point = projection.point(for: coordinate) else {
      throw .invalidValue(field: action, value: coordinate.description, reason: "is beyond the horizon")
    }
    return point
  }

  func iconPoint(of marker: Marker, action: String) throws(MapError) -> Point {
    guard marker.map === self else { throw .notOnThisMap(what: "marker \(marker.id)") }
    guard let point = iconCenter(of: marker) else {
      throw .invalidValue(field: action, value: "marker \(marker.id)", reason: "is beyond the horizon")
    }
    guard (try? point.validated(action)) != nil else {
      throw .invalidValue(
        field: action, value: "marker \(marker.id)",
        reason: "has its icon centre at (\(formatNumber(point.x)), \(formatNumber(point.y))), off any screen")
    }
    return point
  }
}
