/// The 23 callbacks of `GMSMapViewDelegate` and the 4 of Google Maps Utils' clustering
/// delegates, for a headless map (section 1 of the map semantics). Class-bound; every method
/// has a default (Linux has no optional protocol methods): a missing method behaves exactly
/// like one returning nil or false.
///
/// The map calls its delegate synchronously on its own thread. A callback may call back into
/// the map (animate the camera, change the selection, add or remove markers); input (taps,
/// long presses, drags, gestures) sent from inside a callback is refused with
/// ``MapError/reentrantInput(action:callback:)``.
///
/// Every callback reaches the delegate as an event (``DelegateEventHandler``); a
/// `MapViewDelegate` answers it through the matching method below.
public protocol MapViewDelegate: DelegateEventHandler {
  // MARK: Camera

  /// 1. Before the camera starts to change; `gesture` is false for code-driven moves (R23-R25).
  func mapView(_ mapView: MapView, willMove gesture: Bool)
  /// 2. During a move, every frame, and always for the final position.
  func mapView(_ mapView: MapView, didChange position: CameraPosition)
  /// 3. Once, when every gesture and animation has stopped.
  func mapView(_ mapView: MapView, idleAt position: CameraPosition)

  // MARK: Taps on the map

  /// 4. A tap that hit no marker, info window or tappable overlay (R14).
  func mapView(_ mapView: MapView, didTapAt coordinate: Coordinate)
  /// 5. A long press that hit no draggable marker or info window (R19).
  func mapView(_ mapView: MapView, didLongPressAt coordinate: Coordinate)

  // MARK: Markers and info windows

  /// 6. A tap on a marker; return true if handled: the map then skips its default
  /// selection behaviour (R6, R10).
  func mapView(_ mapView: MapView, didTap marker: Marker) -> Bool
  /// 7. A tap inside the shown info window (R16).
  func mapView(_ mapView: MapView, didTapInfoWindowOf marker: Marker)
  /// 8. A long press inside the shown info window (R16).
  func mapView(_ mapView: MapView, didLongPressInfoWindowOf marker: Marker)
  /// 9. A tap on a tappable polyline, polygon, circle or ground overlay (R15).
  func mapView(_ mapView: MapView, didTap overlay: Overlay)
  /// 10. A tap on a point of interest (R17). Under the web policy, return true to stop the
  /// default POI window (R33); elsewhere the result is ignored.
  func mapView(_ mapView: MapView, didTapPOIWithPlaceID placeID: String, name: String, location: Coordinate) -> Bool
  /// 11. Asked when a marker is about to be selected: non-nil content is the whole window (R7).
  func mapView(_ mapView: MapView, markerInfoWindow marker: Marker) -> InfoWindowContent?
  /// 12. Asked only when `markerInfoWindow` gave nil: non-nil content goes inside the default frame (R7).
  func mapView(_ mapView: MapView, markerInfoContents marker: Marker) -> InfoWindowContent?
  /// 13. The marker's info window was closed.
  func mapView(_ mapView: MapView, didCloseInfoWindowOf marker: Marker)

  // MARK: Dragging

  /// 14. A long press started dragging a draggable marker (R18).
  func mapView(_ mapView: MapView, didBeginDragging marker: Marker)
  /// 15. Repeatedly while dragging; `marker.position` is already updated (R18).
  func mapView(_ mapView: MapView, didDrag marker: Marker)
  /// 16. The drag ended (R18).
  func mapView(_ mapView: MapView, didEndDragging marker: Marker)

  // MARK: My location

  /// 17. A tap on the my-location button; return true if handled, else the camera animates
  /// to the location (R32).
  func didTapMyLocationButton(for mapView: MapView) -> Bool
  /// 18. A tap on the my-location dot (R32).
  func mapView(_ mapView: MapView, didTapMyLocation location: Coordinate)

  // MARK: Rendering

  /// 19. Tiles were requested for a new view (R31).
  func mapViewDidStartTileRendering(_ mapView: MapView)
  /// 20. All visible tiles loaded (R31).
  func mapViewDidFinishTileRendering(_ mapView: MapView)
  /// 21. Camera idle, tiles loaded, overlays drawn (R31).
  func mapViewSnapshotReady(_ mapView: MapView)
  /// 22. The set of map capabilities changed.
  func mapView(_ mapView: MapView, didChange capabilities: MapCapabilities)
  /// 23. Data-driven styling: once per feature layer hit by a tap.
  func mapView(_ mapView: MapView, didTap features: [Feature], in layer: FeatureLayer, at location: Coordinate)

  // MARK: Clustering (Google Maps Utils)

  /// 24. A tap on a cluster marker (`clusterManager:didTapCluster:`); return true if
  /// handled: did_tap_marker and the default are skipped (R71).
  func mapView(_ mapView: MapView, didTap cluster: Cluster) -> Bool
  /// 25. A tap on a cluster item's marker (`clusterManager:didTapClusterItem:`); return
  /// true if handled: did_tap_marker and the default are skipped (R71).
  func mapView(_ mapView: MapView, didTap item: ClusterItem) -> Bool
  /// 26. A marker the clustering is about to show (`renderer:willRenderMarker:`, R72).
  func mapView(_ mapView: MapView, willRenderClusterMarker marker: Marker)
  /// 27. A marker the clustering showed (`renderer:didRenderMarker:`, R72).
  func mapView(_ mapView: MapView, didRenderClusterMarker marker: Marker)
}

extension MapViewDelegate {
  /// Calls the method of the event's callback (``DelegateEvent/deliver(to:from:)``).
  public func mapView(_ mapView: MapView, receive event: DelegateEvent) -> CallbackAnswer {
    event.deliver(to: self, from: mapView)
  }
  /// Does nothing.
  public func mapView(_ mapView: MapView, willMove gesture: Bool) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didChange position: CameraPosition) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, idleAt position: CameraPosition) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didTapAt coordinate: Coordinate) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didLongPressAt coordinate: Coordinate) {}
  /// Returns false: the default selection behaviour runs.
  public func mapView(_ mapView: MapView, didTap marker: Marker) -> Bool { false }
  /// Does nothing.
  public func mapView(_ mapView: MapView, didTapInfoWindowOf marker: Marker) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didLongPressInfoWindowOf marker: Marker) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didTap overlay: Overlay) {}
  /// Returns false.
  public func mapView(_ mapView: MapView, didTapPOIWithPlaceID placeID: String, name: String, location: Coordinate)
    -> Bool
  { false }
  /// Returns nil: no custom window.
  public func mapView(_ mapView: MapView, markerInfoWindow marker: Marker) -> InfoWindowContent? { nil }
  /// Returns nil: no custom contents.
  public func mapView(_ mapView: MapView, markerInfoContents marker: Marker) -> InfoWindowContent? { nil }
  /// Does nothing.
  public func mapView(_ mapView: MapView, didCloseInfoWindowOf marker: Marker) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didBeginDragging marker: Marker) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didDrag marker: Marker) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didEndDragging marker: Marker) {}
  /// Returns false: the camera animates to the location.
  public func didTapMyLocationButton(for mapView: MapView) -> Bool { false }
  /// Does nothing.
  public func mapView(_ mapView: MapView, didTapMyLocation location: Coordinate) {}
  /// Does nothing.
  public func mapViewDidStartTileRendering(_ mapView: MapView) {}
  /// Does nothing.
  public func mapViewDidFinishTileRendering(_ mapView: MapView) {}
  /// Does nothing.
  public func mapViewSnapshotReady(_ mapView: MapView) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didChange capabilities: MapCapabilities) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didTap features: [Feature], in layer: FeatureLayer, at location: Coordinate) {
  }
  /// Returns false: the tap goes on to did_tap_marker.
  public func mapView(_ mapView: MapView, didTap cluster: Cluster) -> Bool { false }
  /// Returns false: the tap goes on to did_tap_marker.
  public func mapView(_ mapView: MapView, didTap item: ClusterItem) -> Bool { false }
  /// Does nothing.
  public func mapView(_ mapView: MapView, willRenderClusterMarker marker: Marker) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didRenderClusterMarker marker: Marker) {}
}

/// What answers a map's callbacks, each as an event with its arguments (a map's
/// ``MapView/delegate``): a ``MapViewDelegate``, which answers through the Google-shaped
/// method of each callback, or something that treats every callback alike (the plugin host,
/// a recorder) and implements this one method instead of the 27.
public protocol DelegateEventHandler: AnyObject {
  /// Answers one callback; the answer says, for the trace, who decided.
  func mapView(_ mapView: MapView, receive event: DelegateEvent) -> CallbackAnswer
  /// The live view behind `content`, the content this handler just answered for
  /// marker_info_window or marker_info_contents (R34), or nil (the default) for a snapshot.
  /// Asked only when a window shows content, so an answer carries nothing more than before.
  func mapView(_ mapView: MapView, liveViewOf content: InfoWindowContent) -> LiveView<InfoWindowContent>?
}

extension DelegateEventHandler {
  /// No live view: the content is a snapshot (R34).
  public func mapView(_ mapView: MapView, liveViewOf content: InfoWindowContent) -> LiveView<InfoWindowContent>? {
    nil
  }
}
