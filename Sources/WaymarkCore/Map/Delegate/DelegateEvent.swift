/// One delegate callback as the map makes it: which callback, with its arguments (the
/// argument names and types are in the callback table, `DelegateCallback/signature`).
///
/// A delegate receives every event through `MapViewDelegate/mapView(_:receive:)`, whose
/// default calls the matching Google-shaped method (`deliver(to:from:)`); a delegate that
/// handles every callback the same way (the plugin host) answers events directly.
public enum DelegateEvent {
  /// 1. will_move.
  case willMove(gesture: Bool)
  /// 2. did_change_camera_position.
  case didChangeCameraPosition(CameraPosition)
  /// 3. idle_at_camera_position.
  case idleAtCameraPosition(CameraPosition)
  /// 4. did_tap_at_coordinate.
  case didTapAtCoordinate(Coordinate)
  /// 5. did_long_press_at_coordinate.
  case didLongPressAtCoordinate(Coordinate)
  /// 6. did_tap_marker.
  case didTapMarker(Marker)
  /// 7. did_tap_info_window.
  case didTapInfoWindow(Marker)
  /// 8. did_long_press_info_window.
  case didLongPressInfoWindow(Marker)
  /// 9. did_tap_overlay.
  case didTapOverlay(Overlay)
  /// 10. did_tap_poi.
  case didTapPOI(PointOfInterest)
  /// 11. marker_info_window.
  case markerInfoWindow(Marker)
  /// 12. marker_info_contents.
  case markerInfoContents(Marker)
  /// 13. did_close_info_window.
  case didCloseInfoWindow(Marker)
  /// 14. did_begin_dragging_marker.
  case didBeginDraggingMarker(Marker)
  /// 15. did_drag_marker.
  case didDragMarker(Marker)
  /// 16. did_end_dragging_marker.
  case didEndDraggingMarker(Marker)
  /// 17. did_tap_my_location_button.
  case didTapMyLocationButton
  /// 18. did_tap_my_location.
  case didTapMyLocation(Coordinate)
  /// 19. did_start_tile_rendering.
  case didStartTileRendering
  /// 20. did_finish_tile_rendering.
  case didFinishTileRendering
  /// 21. snapshot_ready.
  case snapshotReady
  /// 22. did_change_map_capabilities.
  case didChangeMapCapabilities(MapCapabilities)
  /// 23. did_tap_features.
  case didTapFeatures([Feature], layer: FeatureLayer, location: Coordinate)
  /// 24. did_tap_cluster.
  case didTapCluster(Cluster)
  /// 25. did_tap_cluster_item.
  case didTapClusterItem(ClusterItem)
  /// 26. will_render_cluster_marker.
  case willRenderClusterMarker(Marker)
  /// 27. did_render_cluster_marker.
  case didRenderClusterMarker(Marker)

  /// Which callback this is.
  public var callback: DelegateCallback {
    switch self {
    case .willMove: .willMove
    case .didChangeCameraPosition: .didChangeCameraPosition
    case .idleAtCameraPosition: .idleAtCameraPosition
    case .didTapAtCoordinate: .didTapAtCoordinate
    case .didLongPressAtCoordinate: .didLongPressAtCoordinate
    case .didTapMarker: .didTapMarker
    case .didTapInfoWindow: .didTapInfoWindow
    case .didLongPressInfoWindow: .didLongPressInfoWindow
    case .didTapOverlay: .didTapOverlay
    case .didTapPOI: .didTapPOI
    case .markerInfoWindow: .markerInfoWindow
    case .markerInfoContents: .markerInfoContents
    case .didCloseInfoWindow: .didCloseInfoWindow
    case .didBeginDraggingMarker: .didBeginDraggingMarker
    case .didDragMarker: .didDragMarker
    case .didEndDraggingMarker: .didEndDraggingMarker
    case .didTapMyLocationButton: .didTapMyLocationButton
    case .didTapMyLocation: .didTapMyLocation
    case .didStartTileRendering: .didStartTileRendering
    case .didFinishTileRendering: .didFinishTileRendering
    case .snapshotReady: .snapshotReady
    case .didChangeMapCapabilities: .didChangeMapCapabilities
    case .didTapFeatures: .didTapFeatures
    case .didTapCluster: .didTapCluster
    case .didTapClusterItem: .didTapClusterItem
    case .willRenderClusterMarker: .willRenderClusterMarker
    case .didRenderClusterMarker: .didRenderClusterMarker
    }
  }

  /// The argument of the callbacks whose only argument (after the map) is a marker: taps on
  /// markers and their windows, window requests, drags; nil for the others. Hosts take it
  /// as their shortest path, handing over a reference instead of building arguments.
  /// One case per pattern: a case of several patterns binding one name copies the whole
  /// event first (about 180 instructions a call, measured).
  @inlinable
  package var soleMarker: Marker? {
    switch self {
    case .didTapMarker(let marker): return marker
    case .didTapInfoWindow(let marker): return marker
    case .didLongPressInfoWindow(let marker): return marker
    case .markerInfoWindow(let marker): return marker
    case .markerInfoContents(let marker): return marker
    case .didCloseInfoWindow(let marker): return marker
    case .didBeginDraggingMarker(let marker): return marker
    case .didDragMarker(let marker): return marker
    case .didEndDraggingMarker(let marker): return marker
    case .willRenderClusterMarker(let marker): return marker
    case .didRenderClusterMarker(let marker): return marker
    case .willMove, .didChangeCameraPosition, .idleAtCameraPosition, .didTapAtCoordinate, .didLongPressAtCoordinate,
      .didTapOverlay, .didTapPOI, .didTapMyLocationButton, .didTapMyLocation, .didStartTileRendering,
      .didFinishTileRendering, .snapshotReady, .didChangeMapCapabilities, .didTapFeatures, .didTapCluster,
      .didTapClusterItem:
      return nil
    }
  }

  /// The serial and identity of the marker of a did_tap_marker event (nil for any other),
  /// read without retaining it: a host's hot path for the veto whose sole argument is a marker.
  @inlinable
  package var tappedMarkerKey: (serial: Int, identity: ObjectIdentifier)? {
    // A switch, not `guard case`, which copied the event (a retain and a release).
    switch self {
    case .didTapMarker(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .willMove, .didChangeCameraPosition, .idleAtCameraPosition, .didTapAtCoordinate, .didLongPressAtCoordinate,
      .didTapInfoWindow, .didLongPressInfoWindow, .didTapOverlay, .didTapPOI, .markerInfoWindow, .markerInfoContents,
      .didCloseInfoWindow, .didBeginDraggingMarker, .didDragMarker, .didEndDraggingMarker, .didTapMyLocationButton,
      .didTapMyLocation, .didStartTileRendering, .didFinishTileRendering, .snapshotReady, .didChangeMapCapabilities,
      .didTapFeatures, .didTapCluster, .didTapClusterItem, .willRenderClusterMarker, .didRenderClusterMarker:
      return nil
    }
  }

  /// The serial and identity of ``soleMarker``, read without retaining the marker: what a
  /// host's cache of marker arguments is keyed on, for events it answers in one call.
  @inlinable
  package var soleMarkerKey: (serial: Int, identity: ObjectIdentifier)? {
    switch self {
    case .didTapMarker(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .didTapInfoWindow(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .didLongPressInfoWindow(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .markerInfoWindow(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .markerInfoContents(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .didCloseInfoWindow(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .didBeginDraggingMarker(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .didDragMarker(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .didEndDraggingMarker(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .willRenderClusterMarker(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .didRenderClusterMarker(let marker): return (marker.serial, ObjectIdentifier(marker))
    case .willMove, .didChangeCameraPosition, .idleAtCameraPosition, .didTapAtCoordinate, .didLongPressAtCoordinate,
      .didTapOverlay, .didTapPOI, .didTapMyLocationButton, .didTapMyLocation, .didStartTileRendering,
      .didFinishTileRendering, .snapshotReady, .didChangeMapCapabilities, .didTapFeatures, .didTapCluster,
      .didTapClusterItem:
      return nil
    }
  }

  /// Calls `body` with each argument after the map, in the order of the callback's signature.
  /// Inlinable: a host pushing arguments for every event then copies nothing.
  @inlinable
  package func forEachArgument(_ body: (CallbackValue) -> Void) {
    switch self {
    case .willMove(let gesture): body(.boolean(gesture))
    case .didChangeCameraPosition(let camera), .idleAtCameraPosition(let camera): body(.camera(camera))
    case .didTapAtCoordinate(let coordinate), .didLongPressAtCoordinate(let coordinate),
      .didTapMyLocation(let coordinate):
      body(.coordinate(coordinate))
    case .didTapMarker(let marker), .didTapInfoWindow(let marker), .didLongPressInfoWindow(let marker),
      .markerInfoWindow(let marker), .markerInfoContents(let marker), .didCloseInfoWindow(let marker),
      .didBeginDraggingMarker(let marker), .didDragMarker(let marker), .didEndDraggingMarker(let marker),
      .willRenderClusterMarker(let marker), .didRenderClusterMarker(let marker):
      body(.marker(marker))
    case .didTapCluster(let cluster): body(.cluster(cluster))
    case .didTapClusterItem(let item): body(.clusterItem(item))
    case .didTapOverlay(let overlay): body(.overlay(overlay))
    case .didTapPOI(let poi):
      body(.string(poi.placeID))
      body(.string(poi.name))
      body(.coordinate(poi.location))
    case .didTapMyLocationButton, .didStartTileRendering, .didFinishTileRendering, .snapshotReady: break
    case .didChangeMapCapabilities(let capabilities): body(.capabilities(capabilities))
    case .didTapFeatures(let features, let layer, let location):
      body(.features(features))
      body(.string(layer.name))
      body(.coordinate(location))
    }
  }

  /// Calls the ``MapViewDelegate`` method of this callback and wraps what it returned: the
  /// one place that maps events to the Google-shaped methods.
  package func deliver(to delegate: MapViewDelegate, from map: MapView) -> CallbackAnswer {
    switch self {
    case .willMove(let gesture): delegate.mapView(map, willMove: gesture)
    case .didChangeCameraPosition(let camera): delegate.mapView(map, didChange: camera)
    case .idleAtCameraPosition(let camera): delegate.mapView(map, idleAt: camera)
    case .didTapAtCoordinate(let coordinate): delegate.mapView(map, didTapAt: coordinate)
    case .didLongPressAtCoordinate(let coordinate): delegate.mapView(map, didLongPressAt: coordinate)
    case .didTapMarker(let marker): return CallbackAnswer(handled: delegate.mapView(map, didTap: marker))
    case .didTapInfoWindow(let marker): delegate.mapView(map, didTapInfoWindowOf: marker)
    case .didLongPressInfoWindow(let marker): delegate.mapView(map, didLongPressInfoWindowOf: marker)
    case .didTapOverlay(let overlay): delegate.mapView(map, didTap: overlay)
    case .didTapPOI(let poi):
      return CallbackAnswer(
        handled: delegate.mapView(map, didTapPOIWithPlaceID: poi.placeID, name: poi.name, location: poi.location))
    case .markerInfoWindow(let marker): return CallbackAnswer(content: delegate.mapView(map, markerInfoWindow: marker))
    case .markerInfoContents(let marker):
      return CallbackAnswer(content: delegate.mapView(map, markerInfoContents: marker))
    case .didCloseInfoWindow(let marker): delegate.mapView(map, didCloseInfoWindowOf: marker)
    case .didBeginDraggingMarker(let marker): delegate.mapView(map, didBeginDragging: marker)
    case .didDragMarker(let marker): delegate.mapView(map, didDrag: marker)
    case .didEndDraggingMarker(let marker): delegate.mapView(map, didEndDragging: marker)
    case .didTapMyLocationButton: return CallbackAnswer(handled: delegate.didTapMyLocationButton(for: map))
    case .didTapMyLocation(let location): delegate.mapView(map, didTapMyLocation: location)
    case .didStartTileRendering: delegate.mapViewDidStartTileRendering(map)
    case .didFinishTileRendering: delegate.mapViewDidFinishTileRendering(map)
    case .snapshotReady: delegate.mapViewSnapshotReady(map)
    case .didChangeMapCapabilities(let capabilities): delegate.mapView(map, didChange: capabilities)
    case .didTapFeatures(let features, let layer, let location):
      delegate.mapView(map, didTap: features, in: layer, at: location)
    case .didTapCluster(let cluster): return CallbackAnswer(handled: delegate.mapView(map, didTap: cluster))
    case .didTapClusterItem(let item): return CallbackAnswer(handled: delegate.mapView(map, didTap: item))
    case .willRenderClusterMarker(let marker): delegate.mapView(map, willRenderClusterMarker: marker)
    case .didRenderClusterMarker(let marker): delegate.mapView(map, didRenderClusterMarker: marker)
    }
    return .none
  }
}

/// An argument of a callback (after the map), by the kinds the callback table uses.
@usableFromInline
package enum CallbackValue {
  /// will_move's gesture flag.
  case boolean(Bool)
  /// The camera of the camera events.
  case camera(CameraPosition)
  /// A coordinate or a location.
  case coordinate(Coordinate)
  /// The marker of a marker event.
  case marker(Marker)
  /// The overlay of did_tap_overlay.
  case overlay(Overlay)
  /// A place id, a name, a layer's name.
  case string(String)
  /// The capabilities of did_change_map_capabilities.
  case capabilities(MapCapabilities)
  /// The features of did_tap_features.
  case features([Feature])
  /// The cluster of did_tap_cluster.
  case cluster(Cluster)
  /// The item of did_tap_cluster_item.
  case clusterItem(ClusterItem)

  /// The value's kind.
  package var kind: CallbackSignature.Argument.Kind {
    switch self {
    case .boolean: .boolean
    case .camera: .camera
    case .coordinate: .coordinate
    case .marker: .marker
    case .overlay: .overlay
    case .string: .string
    case .capabilities: .capabilities
    case .features: .features
    case .cluster: .cluster
    case .clusterItem: .clusterItem
    }
  }
}

/// A delegate's answer to one callback: what the delegate protocol returns for it, and who
/// decided (for the trace's `plugin` field).
public struct CallbackAnswer: Sendable {
  /// did_tap_marker, did_tap_my_location_button, did_tap_poi, did_tap_cluster and
  /// did_tap_cluster_item: true = handled.
  public var isHandled: Bool
  /// marker_info_window, marker_info_contents: the content, nil for none.
  public var content: InfoWindowContent?
  /// Who decided: the name of the plugin whose answer won, nil for the default or for a
  /// delegate that does not name itself.
  public var decidedBy: String?

  /// The answer of a notification, and of a delegate that has nothing to say.
  public static let none = CallbackAnswer()

  /// Creates an answer.
  public init(handled: Bool = false, content: InfoWindowContent? = nil, decidedBy: String? = nil) {
    isHandled = handled
    self.content = content
    self.decidedBy = decidedBy
  }
}

extension TraceRecord {
  /// The record of a callback, made when the map makes it: `marker`, `overlay`, `camera`,
  /// `gesture` and `coordinate` from the arguments of those kinds, the others as further
  /// fields (strings before lists, as docs/trace-format.md orders them); veto and content
  /// callbacks start with `plugin` null, filled in with the answer.
  init(_ event: DelegateEvent, at time: Double) {
    let signature = event.callback.signature
    self.init(time: time, event: .callback(event.callback))
    var names = signature.arguments.makeIterator()
    var lists: [TraceField] = []
    event.forEachArgument { value in
      let name = names.next()?.name ?? ""
      switch value {
      case .boolean(let flag):
        if name == "gesture" { gesture = flag } else { extra.append(TraceField(name, .bool(flag))) }
      case .camera(let position): camera = position
      case .coordinate(let coordinate): self.coordinate = coordinate
      case .marker(let marker): self.marker = marker.id
      case .overlay(let overlay): self.overlay = overlay.id
      case .string(let text): extra.append(TraceField(name, .string(text)))
      case .capabilities(let set): lists.append(TraceField(name, .list(set.names.map(TraceValue.string))))
      case .features(let features): lists.append(TraceField(name, .list(features.map { .string($0.placeID) })))
      case .cluster(let cluster):
        self.coordinate = cluster.position
        extra.append(TraceField("count", .number(Double(cluster.count))))
      case .clusterItem(let item):
        self.coordinate = item.position
        extra.append(TraceField("item", .string(item.id)))
      }
    }
    extra += lists
    if signature.composition != .notification { answerer = .null }
  }
}
