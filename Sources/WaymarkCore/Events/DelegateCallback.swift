/// The 23 delegate callbacks by their snake_case handler names (a contract: the same names
/// serve Lua plugins and the trace).
public enum DelegateCallback: String, CaseIterable, Sendable {
  /// 1
  case willMove = "will_move"
  /// 2
  case didChangeCameraPosition = "did_change_camera_position"
  /// 3
  case idleAtCameraPosition = "idle_at_camera_position"
  /// 4
  case didTapAtCoordinate = "did_tap_at_coordinate"
  /// 5
  case didLongPressAtCoordinate = "did_long_press_at_coordinate"
  /// 6
  case didTapMarker = "did_tap_marker"
  /// 7
  case didTapInfoWindow = "did_tap_info_window"
  /// 8
  case didLongPressInfoWindow = "did_long_press_info_window"
  /// 9
  case didTapOverlay = "did_tap_overlay"
  /// 10
  case didTapPOI = "did_tap_poi"
  /// 11
  case markerInfoWindow = "marker_info_window"
  /// 12
  case markerInfoContents = "marker_info_contents"
  /// 13
  case didCloseInfoWindow = "did_close_info_window"
  /// 14
  case didBeginDraggingMarker = "did_begin_dragging_marker"
  /// 15
  case didDragMarker = "did_drag_marker"
  /// 16
  case didEndDraggingMarker = "did_end_dragging_marker"
  /// 17
  case didTapMyLocationButton = "did_tap_my_location_button"
  /// 18
  case didTapMyLocation = "did_tap_my_location"
  /// 19
  case didStartTileRendering = "did_start_tile_rendering"
  /// 20
  case didFinishTileRendering = "did_finish_tile_rendering"
  /// 21
  case snapshotReady = "snapshot_ready"
  /// 22
  case didChangeMapCapabilities = "did_change_map_capabilities"
  /// 23
  case didTapFeatures = "did_tap_features"

  /// How several answers compose (docs/plugins.md, "Composition"): the first `true` wins a veto, the first
  /// non-nil answer wins a content request, every answerer hears a notification.
  public enum Composition: Sendable {
    /// did_tap_marker, did_tap_my_location_button.
    case veto
    /// marker_info_window, marker_info_contents.
    case content
    /// All the others.
    case notification
  }

  /// How answers to this callback compose.
  public var composition: Composition {
    switch self {
    case .didTapMarker, .didTapMyLocationButton: .veto
    case .markerInfoWindow, .markerInfoContents: .content
    default: .notification
    }
  }

  /// The argument names after the map, in order (section 1 of the map semantics).
  public var argumentNames: [String] {
    switch self {
    case .willMove: ["gesture"]
    case .didChangeCameraPosition, .idleAtCameraPosition: ["camera"]
    case .didTapAtCoordinate, .didLongPressAtCoordinate: ["coordinate"]
    case .didTapMarker, .didTapInfoWindow, .didLongPressInfoWindow, .markerInfoWindow, .markerInfoContents,
      .didCloseInfoWindow, .didBeginDraggingMarker, .didDragMarker, .didEndDraggingMarker:
      ["marker"]
    case .didTapOverlay: ["overlay"]
    case .didTapPOI: ["place_id", "name", "location"]
    case .didTapMyLocationButton, .didStartTileRendering, .didFinishTileRendering, .snapshotReady: []
    case .didTapMyLocation: ["location"]
    case .didChangeMapCapabilities: ["capabilities"]
    case .didTapFeatures: ["features", "layer", "location"]
    }
  }
}
