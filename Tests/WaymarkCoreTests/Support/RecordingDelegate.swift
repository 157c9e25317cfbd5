import WaymarkCore

/// A delegate that records every callback as a short line ("did_tap_marker(sydney)") and
/// answers through closures the test sets.
final class RecordingDelegate: MapViewDelegate {
  var calls: [String] = []
  var tapMarker: ((MapView, Marker) -> Bool)?
  var infoWindow: ((Marker) -> InfoWindowContent?)?
  var infoContents: ((Marker) -> InfoWindowContent?)?
  var tapAt: ((MapView, Coordinate) -> Void)?
  var longPressAt: ((MapView, Coordinate) -> Void)?
  var closeInfoWindow: ((MapView, Marker) -> Void)?
  var longPressInfoWindow: ((MapView, Marker) -> Void)?
  var tapPOI: ((String) -> Bool)?
  var myLocationButton: (() -> Bool)?
  var idle: ((MapView, CameraPosition) -> Void)?

  /// The calls without camera frames and tile/snapshot noise.
  var events: [String] {
    calls.filter {
      !$0.hasPrefix("did_change_camera_position") && !$0.contains("tile_rendering") && $0 != "snapshot_ready"
    }
  }

  func mapView(_ mapView: MapView, willMove gesture: Bool) { calls.append("will_move(\(gesture))") }
  func mapView(_ mapView: MapView, didChange position: CameraPosition) { calls.append("did_change_camera_position") }
  func mapView(_ mapView: MapView, idleAt position: CameraPosition) {
    calls.append("idle_at_camera_position")
    idle?(mapView, position)
  }
  func mapView(_ mapView: MapView, didTapAt coordinate: Coordinate) {
    calls.append("did_tap_at_coordinate")
    tapAt?(mapView, coordinate)
  }
  func mapView(_ mapView: MapView, didLongPressAt coordinate: Coordinate) {
    calls.append("did_long_press_at_coordinate")
    longPressAt?(mapView, coordinate)
  }
  func mapView(_ mapView: MapView, didTap marker: Marker) -> Bool {
    calls.append("did_tap_marker(\(marker.id))")
    return tapMarker?(mapView, marker) ?? false
  }
  func mapView(_ mapView: MapView, didTapInfoWindowOf marker: Marker) {
    calls.append("did_tap_info_window(\(marker.id))")
  }
  func mapView(_ mapView: MapView, didLongPressInfoWindowOf marker: Marker) {
    calls.append("did_long_press_info_window(\(marker.id))")
    longPressInfoWindow?(mapView, marker)
  }
  func mapView(_ mapView: MapView, didTap overlay: Overlay) { calls.append("did_tap_overlay(\(overlay.id))") }
  func mapView(_ mapView: MapView, didTapPOIWithPlaceID placeID: String, name: String, location: Coordinate) -> Bool {
    calls.append("did_tap_poi(\(placeID))")
    return tapPOI?(placeID) ?? false
  }
  func mapView(_ mapView: MapView, markerInfoWindow marker: Marker) -> InfoWindowContent? {
    calls.append("marker_info_window(\(marker.id))")
    return infoWindow?(marker)
  }
  func mapView(_ mapView: MapView, markerInfoContents marker: Marker) -> InfoWindowContent? {
    calls.append("marker_info_contents(\(marker.id))")
    return infoContents?(marker)
  }
  func mapView(_ mapView: MapView, didCloseInfoWindowOf marker: Marker) {
    calls.append("did_close_info_window(\(marker.id))")
    closeInfoWindow?(mapView, marker)
  }
  func mapView(_ mapView: MapView, didBeginDragging marker: Marker) {
    calls.append("did_begin_dragging_marker(\(marker.id))")
  }
  func mapView(_ mapView: MapView, didDrag marker: Marker) { calls.append("did_drag_marker(\(marker.id))") }
  func mapView(_ mapView: MapView, didEndDragging marker: Marker) {
    calls.append("did_end_dragging_marker(\(marker.id))")
  }
  func didTapMyLocationButton(for mapView: MapView) -> Bool {
    calls.append("did_tap_my_location_button")
    return myLocationButton?() ?? false
  }
  func mapView(_ mapView: MapView, didTapMyLocation location: Coordinate) { calls.append("did_tap_my_location") }
  func mapViewDidStartTileRendering(_ mapView: MapView) { calls.append("did_start_tile_rendering") }
  func mapViewDidFinishTileRendering(_ mapView: MapView) { calls.append("did_finish_tile_rendering") }
  func mapViewSnapshotReady(_ mapView: MapView) { calls.append("snapshot_ready") }
  func mapView(_ mapView: MapView, didChange capabilities: MapCapabilities) {
    calls.append("did_change_map_capabilities(\(capabilities.names.joined(separator: ",")))")
  }
  func mapView(_ mapView: MapView, didTap features: [Feature], in layer: FeatureLayer, at location: Coordinate) {
    calls.append("did_tap_features(\(layer.name):\(features.map(\.placeID).joined(separator: ",")))")
  }
}
