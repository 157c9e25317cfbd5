import LuaKit
import WaymarkCore

/// The 23 callbacks, each fanned out to the plugins with the composition of its kind.
extension PluginHost {
  // MARK: Camera

  /// will_move(map, gesture).
  public func mapView(_ mapView: MapView, willMove gesture: Bool) {
    notify(.willMove) { _, stack in
      stack.push(gesture)
      return 1
    }
  }

  /// did_change_camera_position(map, camera).
  public func mapView(_ mapView: MapView, didChange position: CameraPosition) {
    notify(.didChangeCameraPosition) { _, stack in
      LuaValues.push(position, on: stack)
      return 1
    }
  }

  /// idle_at_camera_position(map, camera).
  public func mapView(_ mapView: MapView, idleAt position: CameraPosition) {
    notify(.idleAtCameraPosition) { _, stack in
      LuaValues.push(position, on: stack)
      return 1
    }
  }

  // MARK: Taps on the map

  /// did_tap_at_coordinate(map, coordinate).
  public func mapView(_ mapView: MapView, didTapAt coordinate: Coordinate) {
    notify(.didTapAtCoordinate) { _, stack in
      LuaValues.push(coordinate, on: stack)
      return 1
    }
  }

  /// did_long_press_at_coordinate(map, coordinate).
  public func mapView(_ mapView: MapView, didLongPressAt coordinate: Coordinate) {
    notify(.didLongPressAtCoordinate) { _, stack in
      LuaValues.push(coordinate, on: stack)
      return 1
    }
  }

  // MARK: Markers and info windows

  /// did_tap_marker(map, marker): a veto.
  public func mapView(_ mapView: MapView, didTap marker: Marker) -> Bool {
    vetoMarker(marker)
  }

  /// did_tap_info_window(map, marker).
  public func mapView(_ mapView: MapView, didTapInfoWindowOf marker: Marker) {
    notify(.didTapInfoWindow) { bridge, stack in
      bridge.push(marker, on: stack)
      return 1
    }
  }

  /// did_long_press_info_window(map, marker).
  public func mapView(_ mapView: MapView, didLongPressInfoWindowOf marker: Marker) {
    notify(.didLongPressInfoWindow) { bridge, stack in
      bridge.push(marker, on: stack)
      return 1
    }
  }

  /// did_tap_overlay(map, overlay).
  public func mapView(_ mapView: MapView, didTap overlay: Overlay) {
    notify(.didTapOverlay) { bridge, stack in
      bridge.push(overlay, on: stack)
      return 1
    }
  }

  /// did_tap_poi(map, place_id, name, location): every plugin; true from any stops the web
  /// policy's default POI window.
  public func mapView(_ mapView: MapView, didTapPOIWithPlaceID placeID: String, name: String, location: Coordinate)
    -> Bool
  {
    notify(.didTapPOI) { _, stack in
      stack.push(placeID)
      stack.push(name)
      LuaValues.push(location, on: stack)
      return 3
    }
  }

  /// marker_info_window(map, marker): content.
  public func mapView(_ mapView: MapView, markerInfoWindow marker: Marker) -> InfoWindowContent? {
    content(.markerInfoWindow, marker)
  }

  /// marker_info_contents(map, marker): content.
  public func mapView(_ mapView: MapView, markerInfoContents marker: Marker) -> InfoWindowContent? {
    content(.markerInfoContents, marker)
  }

  /// did_close_info_window(map, marker).
  public func mapView(_ mapView: MapView, didCloseInfoWindowOf marker: Marker) {
    notify(.didCloseInfoWindow) { bridge, stack in
      bridge.push(marker, on: stack)
      return 1
    }
  }

  // MARK: Dragging

  /// did_begin_dragging_marker(map, marker).
  public func mapView(_ mapView: MapView, didBeginDragging marker: Marker) {
    notify(.didBeginDraggingMarker) { bridge, stack in
      bridge.push(marker, on: stack)
      return 1
    }
  }

  /// did_drag_marker(map, marker).
  public func mapView(_ mapView: MapView, didDrag marker: Marker) {
    notify(.didDragMarker) { bridge, stack in
      bridge.push(marker, on: stack)
      return 1
    }
  }

  /// did_end_dragging_marker(map, marker).
  public func mapView(_ mapView: MapView, didEndDragging marker: Marker) {
    notify(.didEndDraggingMarker) { bridge, stack in
      bridge.push(marker, on: stack)
      return 1
    }
  }

  // MARK: My location

  /// did_tap_my_location_button(map): a veto.
  public func didTapMyLocationButton(for mapView: MapView) -> Bool {
    veto(.didTapMyLocationButton, { _, _ in 0 })
  }

  /// did_tap_my_location(map, location).
  public func mapView(_ mapView: MapView, didTapMyLocation location: Coordinate) {
    notify(.didTapMyLocation) { _, stack in
      LuaValues.push(location, on: stack)
      return 1
    }
  }

  // MARK: Rendering

  /// did_start_tile_rendering(map).
  public func mapViewDidStartTileRendering(_ mapView: MapView) {
    notify(.didStartTileRendering, { _, _ in 0 })
  }

  /// did_finish_tile_rendering(map).
  public func mapViewDidFinishTileRendering(_ mapView: MapView) {
    notify(.didFinishTileRendering, { _, _ in 0 })
  }

  /// snapshot_ready(map).
  public func mapViewSnapshotReady(_ mapView: MapView) {
    notify(.snapshotReady, { _, _ in 0 })
  }

  /// did_change_map_capabilities(map, capabilities): a set `{ advanced_markers = true }`.
  public func mapView(_ mapView: MapView, didChange capabilities: MapCapabilities) {
    notify(.didChangeMapCapabilities) { _, stack in
      stack.newTable()
      for name in capabilities.names {
        stack.push(true)
        stack.rawSetField(name, ofTableAt: -2)
      }
      return 1
    }
  }

  /// did_tap_features(map, features, layer, location): features as `{ { place_id = } }`.
  public func mapView(_ mapView: MapView, didTap features: [Feature], in layer: FeatureLayer, at location: Coordinate) {
    notify(.didTapFeatures) { _, stack in
      stack.newTable(arrayCount: Int32(clamping: features.count))
      for (i, feature) in features.enumerated() {
        stack.newTable()
        stack.push(feature.placeID)
        stack.rawSetField("place_id", ofTableAt: -2)
        stack.rawSetIndex(i + 1, ofTableAt: -2)
      }
      stack.push(layer.name)
      LuaValues.push(location, on: stack)
      return 3
    }
  }
}
