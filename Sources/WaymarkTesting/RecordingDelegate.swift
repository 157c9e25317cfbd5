import WaymarkCore

/// A delegate that records every callback as a short line (`did_tap_marker(sydney)`,
/// `will_move(true)`) and answers through closures a test sets: what swift-log's testing
/// handler is to a logger. Every method of ``MapViewDelegate`` is implemented, so it also
/// shows the complete Google-shaped delegate.
///
/// ```swift
/// let delegate = RecordingDelegate()
/// delegate.tapMarker = { _, marker in marker.id == "secret" }
/// map.delegate = delegate
/// try map.tap(.marker(secret))
/// #expect(delegate.events == ["did_tap_marker(secret)"])
/// ```
public final class RecordingDelegate: MapViewDelegate {
  /// Every callback heard, in order, one short line each.
  public var calls: [String] = []
  /// did_tap_marker's answer (false when nil).
  public var tapMarker: ((MapView, Marker) -> Bool)?
  /// marker_info_window's answer (nil when nil).
  public var infoWindow: ((Marker) -> InfoWindowContent?)?
  /// marker_info_contents's answer (nil when nil).
  public var infoContents: ((Marker) -> InfoWindowContent?)?
  /// Runs on did_tap_at_coordinate.
  public var tapAt: ((MapView, Coordinate) -> Void)?
  /// Runs on did_long_press_at_coordinate.
  public var longPressAt: ((MapView, Coordinate) -> Void)?
  /// Runs on did_close_info_window.
  public var closeInfoWindow: ((MapView, Marker) -> Void)?
  /// Runs on did_long_press_info_window.
  public var longPressInfoWindow: ((MapView, Marker) -> Void)?
  /// did_tap_poi's answer, by place id (false when nil).
  public var tapPOI: ((String) -> Bool)?
  /// did_tap_my_location_button's answer (false when nil).
  public var myLocationButton: (() -> Bool)?
  /// Runs on idle_at_camera_position.
  public var idle: ((MapView, CameraPosition) -> Void)?

  /// Creates a delegate that has heard nothing.
  public init() {}

  /// The calls without camera frames and tile/snapshot noise.
  public var events: [String] {
    calls.filter {
      !$0.hasPrefix("did_change_camera_position") && !$0.contains("tile_rendering") && $0 != "snapshot_ready"
    }
  }

  /// Records `will_move(…)`.
  public func mapView(_ mapView: MapView, willMove gesture: Bool) { calls.append("will_move(\(gesture))") }
  /// Records `did_change_camera_position`.
  public func mapView(_ mapView: MapView, didChange position: CameraPosition) {
    calls.append("did_change_camera_position")
  }
  /// Records `idle_at_camera_position`, then runs ``idle``.
  public func mapView(_ mapView: MapView, idleAt position: CameraPosition) {
    calls.append("idle_at_camera_position")
    idle?(mapView, position)
  }
  /// Records `did_tap_at_coordinate`, then runs ``tapAt``.
  public func mapView(_ mapView: MapView, didTapAt coordinate: Coordinate) {
    calls.append("did_tap_at_coordinate")
    tapAt?(mapView, coordinate)
  }
  /// Records `did_long_press_at_coordinate`, then runs ``longPressAt``.
  public func mapView(_ mapView: MapView, didLongPressAt coordinate: Coordinate) {
    calls.append("did_long_press_at_coordinate")
    longPressAt?(mapView, coordinate)
  }
  /// Records `did_tap_marker(…)`; answers with ``tapMarker``.
  public func mapView(_ mapView: MapView, didTap marker: Marker) -> Bool {
    calls.append("did_tap_marker(\(marker.id))")
    return tapMarker?(mapView, marker) ?? false
  }
  /// Records `did_tap_info_window(…)`.
  public func mapView(_ mapView: MapView, didTapInfoWindowOf marker: Marker) {
    calls.append("did_tap_info_window(\(marker.id))")
  }
  /// Records `did_long_press_info_window(…)`, then runs ``longPressInfoWindow``.
  public func mapView(_ mapView: MapView, didLongPressInfoWindowOf marker: Marker) {
    calls.append("did_long_press_info_window(\(marker.id))")
    longPressInfoWindow?(mapView, marker)
  }
  /// Records `did_tap_overlay(…)`.
  public func mapView(_ mapView: MapView, didTap overlay: Overlay) { calls.append("did_tap_overlay(\(overlay.id))") }
  /// Records `did_tap_poi(…)`; answers with ``tapPOI``.
  public func mapView(_ mapView: MapView, didTapPOIWithPlaceID placeID: String, name: String, location: Coordinate)
    -> Bool
  {
    calls.append("did_tap_poi(\(placeID))")
    return tapPOI?(placeID) ?? false
  }
  /// Records `marker_info_window(…)`; answers with ``infoWindow``.
  public func mapView(_ mapView: MapView, markerInfoWindow marker: Marker) -> InfoWindowContent? {
    calls.append("marker_info_window(\(marker.id))")
    return infoWindow?(marker)
  }
  /// Records `marker_info_contents(…)`; answers with ``infoContents``.
  public func mapView(_ mapView: MapView, markerInfoContents marker: Marker) -> InfoWindowContent? {
    calls.append("marker_info_contents(\(marker.id))")
    return infoContents?(marker)
  }
  /// Records `did_close_info_window(…)`, then runs ``closeInfoWindow``.
  public func mapView(_ mapView: MapView, didCloseInfoWindowOf marker: Marker) {
    calls.append("did_close_info_window(\(marker.id))")
    closeInfoWindow?(mapView, marker)
  }
  /// Records `did_begin_dragging_marker(…)`.
  public func mapView(_ mapView: MapView, didBeginDragging marker: Marker) {
    calls.append("did_begin_dragging_marker(\(marker.id))")
  }
  /// Records `did_drag_marker(…)`.
  public func mapView(_ mapView: MapView, didDrag marker: Marker) { calls.append("did_drag_marker(\(marker.id))") }
  /// Records `did_end_dragging_marker(…)`.
  public func mapView(_ mapView: MapView, didEndDragging marker: Marker) {
    calls.append("did_end_dragging_marker(\(marker.id))")
  }
  /// Records `did_tap_my_location_button`; answers with ``myLocationButton``.
  public func didTapMyLocationButton(for mapView: MapView) -> Bool {
    calls.append("did_tap_my_location_button")
    return myLocationButton?() ?? false
  }
  /// Records `did_tap_my_location`.
  public func mapView(_ mapView: MapView, didTapMyLocation location: Coordinate) { calls.append("did_tap_my_location") }
  /// Records `did_start_tile_rendering`.
  public func mapViewDidStartTileRendering(_ mapView: MapView) { calls.append("did_start_tile_rendering") }
  /// Records `did_finish_tile_rendering`.
  public func mapViewDidFinishTileRendering(_ mapView: MapView) { calls.append("did_finish_tile_rendering") }
  /// Records `snapshot_ready`.
  public func mapViewSnapshotReady(_ mapView: MapView) { calls.append("snapshot_ready") }
  /// Records `did_change_map_capabilities(name,name)`.
  public func mapView(_ mapView: MapView, didChange capabilities: MapCapabilities) {
    calls.append("did_change_map_capabilities(\(capabilities.names.joined(separator: ",")))")
  }
  /// Records `did_tap_features(layer:place_id,place_id)`.
  public func mapView(_ mapView: MapView, didTap features: [Feature], in layer: FeatureLayer, at location: Coordinate) {
    calls.append("did_tap_features(\(layer.name):\(features.map(\.placeID).joined(separator: ",")))")
  }
}
