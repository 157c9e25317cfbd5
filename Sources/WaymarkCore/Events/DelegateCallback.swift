/// The 23 callbacks of `GMSMapViewDelegate` and the 4 of Google Maps Utils' clustering
/// delegates (`GMUClusterManagerDelegate`, `GMUClusterRendererDelegate`; section 1 and R71,
/// R72 of docs/semantics.md), in the order of section 1, and the one table that says
/// everything about each: its Swift method, its handler name (the same in Lua plugins and in the trace), its arguments with their names
/// and types, how several answers compose, and what it returns.
///
/// Everything else is derived from the table: the plugin host's dispatch, the names a plugin
/// loader accepts, the LuaLS signatures, the handler table in docs/plugins.md and the trace
/// records. Adding a callback means a case here with its row in `signature`, a case of
/// ``DelegateEvent`` with its method in ``MapViewDelegate``, and the place where the map
/// makes it: the switches are exhaustive, so a missing piece does not compile.
public enum DelegateCallback: Int, CaseIterable, Sendable {
  case willMove
  case didChangeCameraPosition
  case idleAtCameraPosition
  case didTapAtCoordinate
  case didLongPressAtCoordinate
  case didTapMarker
  case didTapInfoWindow
  case didLongPressInfoWindow
  case didTapOverlay
  case didTapPOI
  case markerInfoWindow
  case markerInfoContents
  case didCloseInfoWindow
  case didBeginDraggingMarker
  case didDragMarker
  case didEndDraggingMarker
  case didTapMyLocationButton
  case didTapMyLocation
  case didStartTileRendering
  case didFinishTileRendering
  case snapshotReady
  case didChangeMapCapabilities
  case didTapFeatures
  case didTapCluster
  case didTapClusterItem
  case willRenderClusterMarker
  case didRenderClusterMarker

  /// The table: one row per callback.
  private var row: CallbackSignature {
    switch self {
    case .willMove:
      .notification(
        "will_move", "mapView(_:willMove:)", [("gesture", .boolean)],
        "Before the camera starts to change; gesture is false for code-driven moves (R23-R25).")
    case .didChangeCameraPosition:
      .notification(
        "did_change_camera_position", "mapView(_:didChange:)", [("camera", .camera)],
        "During a move, every frame, and always for the final position.")
    case .idleAtCameraPosition:
      .notification(
        "idle_at_camera_position", "mapView(_:idleAt:)", [("camera", .camera)],
        "Once, when every gesture and animation has stopped.")
    case .didTapAtCoordinate:
      .notification(
        "did_tap_at_coordinate", "mapView(_:didTapAt:)", [("coordinate", .coordinate)],
        "A tap that hit no marker, info window or tappable overlay (R14).")
    case .didLongPressAtCoordinate:
      .notification(
        "did_long_press_at_coordinate", "mapView(_:didLongPressAt:)", [("coordinate", .coordinate)],
        "A long press that hit no draggable marker or info window (R19).")
    case .didTapMarker:
      CallbackSignature(
        name: "did_tap_marker", swiftName: "mapView(_:didTap:) -> Bool", arguments: [("marker", .marker)],
        composition: .veto, returns: .handled,
        summary: "A tap on a marker; true = handled: the map skips its default selection behaviour (R6, R10).")
    case .didTapInfoWindow:
      .notification(
        "did_tap_info_window", "mapView(_:didTapInfoWindowOf:)", [("marker", .marker)],
        "A tap inside the shown info window (R16).")
    case .didLongPressInfoWindow:
      .notification(
        "did_long_press_info_window", "mapView(_:didLongPressInfoWindowOf:)", [("marker", .marker)],
        "A long press inside the shown info window (R16).")
    case .didTapOverlay:
      .notification(
        "did_tap_overlay", "mapView(_:didTap:)", [("overlay", .overlay)],
        "A tap on a tappable polyline, polygon, circle or ground overlay (R15).")
    case .didTapPOI:
      CallbackSignature(
        name: "did_tap_poi", swiftName: "mapView(_:didTapPOIWithPlaceID:name:location:) -> Bool",
        arguments: [("place_id", .string), ("name", .string), ("location", .coordinate)],
        composition: .notification, returns: .handled,
        summary:
          "A tap on a point of interest (R17); under the web policy, true from any answerer stops the default POI window (R33)."
      )
    case .markerInfoWindow:
      CallbackSignature(
        name: "marker_info_window", swiftName: "mapView(_:markerInfoWindow:) -> InfoWindowContent?",
        arguments: [("marker", .marker)], composition: .content, returns: .content,
        summary: "Asked when a marker is about to be selected; content = the whole window (R7).")
    case .markerInfoContents:
      CallbackSignature(
        name: "marker_info_contents", swiftName: "mapView(_:markerInfoContents:) -> InfoWindowContent?",
        arguments: [("marker", .marker)], composition: .content, returns: .content,
        summary: "Asked only when marker_info_window gave nil; content goes inside the default frame (R7).")
    case .didCloseInfoWindow:
      .notification(
        "did_close_info_window", "mapView(_:didCloseInfoWindowOf:)", [("marker", .marker)],
        "The marker's info window was closed.")
    case .didBeginDraggingMarker:
      .notification(
        "did_begin_dragging_marker", "mapView(_:didBeginDragging:)", [("marker", .marker)],
        "A long press started dragging a draggable marker (R18).")
    case .didDragMarker:
      .notification(
        "did_drag_marker", "mapView(_:didDrag:)", [("marker", .marker)],
        "Repeatedly while dragging; marker.position is already updated (R18).")
    case .didEndDraggingMarker:
      .notification(
        "did_end_dragging_marker", "mapView(_:didEndDragging:)", [("marker", .marker)], "The drag ended (R18).")
    case .didTapMyLocationButton:
      CallbackSignature(
        name: "did_tap_my_location_button", swiftName: "didTapMyLocationButton(for:) -> Bool", arguments: [],
        composition: .veto, returns: .handled,
        summary: "A tap on the my-location button; true = handled, else the camera animates to the location (R32).")
    case .didTapMyLocation:
      .notification(
        "did_tap_my_location", "mapView(_:didTapMyLocation:)", [("location", .coordinate)],
        "A tap on the my-location dot (R32).")
    case .didStartTileRendering:
      .notification(
        "did_start_tile_rendering", "mapViewDidStartTileRendering(_:)", [], "Tiles were requested for a new view (R31)."
      )
    case .didFinishTileRendering:
      .notification(
        "did_finish_tile_rendering", "mapViewDidFinishTileRendering(_:)", [], "All visible tiles loaded (R31).")
    case .snapshotReady:
      .notification(
        "snapshot_ready", "mapViewSnapshotReady(_:)", [], "Camera idle, tiles loaded, overlays drawn (R31).")
    case .didChangeMapCapabilities:
      .notification(
        "did_change_map_capabilities", "mapView(_:didChange:)", [("capabilities", .capabilities)],
        "The set of map capabilities changed.")
    case .didTapFeatures:
      .notification(
        "did_tap_features", "mapView(_:didTap:in:at:)",
        [("features", .features), ("layer", .string), ("location", .coordinate)],
        "Data-driven styling: once per feature layer hit by a tap.")
    case .didTapCluster:
      CallbackSignature(
        name: "did_tap_cluster", swiftName: "mapView(_:didTap:) -> Bool", arguments: [("cluster", .cluster)],
        composition: .veto, returns: .handled,
        summary: "A tap on a cluster marker, before did_tap_marker; true = handled: nothing else runs (R71).")
    case .didTapClusterItem:
      CallbackSignature(
        name: "did_tap_cluster_item", swiftName: "mapView(_:didTap:) -> Bool", arguments: [("item", .clusterItem)],
        composition: .veto, returns: .handled,
        summary: "A tap on a cluster item's marker, before did_tap_marker; true = handled: nothing else runs (R71).")
    case .willRenderClusterMarker:
      .notification(
        "will_render_cluster_marker", "mapView(_:willRenderClusterMarker:)", [("marker", .marker)],
        "A marker the clustering renders (a cluster's or an item's), before it moves into place (R72).")
    case .didRenderClusterMarker:
      .notification(
        "did_render_cluster_marker", "mapView(_:didRenderClusterMarker:)", [("marker", .marker)],
        "A marker the clustering rendered (a cluster's or an item's), after its move started (R72).")
    }
  }

  private static let signatures = allCases.map(\.row)
  // What dispatch reads on every call, apart, so a read copies no row.
  private static let names = signatures.map(\.name)
  private static let compositions = signatures.map(\.composition)
  private static let answers = signatures.map { $0.returns == .handled }
  private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })

  /// Everything about this callback (its row of the table).
  package var signature: CallbackSignature { Self.signatures[rawValue] }

  /// The snake_case handler name: the same in Lua plugins and in the trace (a contract).
  public var name: String { Self.names[rawValue] }

  /// How answers to this callback compose.
  package var composition: Composition { Self.compositions[rawValue] }

  /// Whether the callback returns "handled" (did_tap_marker, did_tap_my_location_button,
  /// did_tap_poi, did_tap_cluster, did_tap_cluster_item).
  package var returnsHandled: Bool { Self.answers[rawValue] }

  /// How several answers compose (docs/plugins.md, "Composition").
  package enum Composition: String, Sendable {
    /// The first `true` wins; later answerers are not asked.
    case veto
    /// The first non-nil content wins; later answerers are not asked.
    case content
    /// Every answerer hears it.
    case notification
  }

  /// The callback with this handler name, if any.
  package init?(name: String) {
    guard let callback = Self.byName[name] else { return nil }
    self = callback
  }
}

/// One row of the callback table (``DelegateCallback/signature``).
package struct CallbackSignature: Sendable {
  /// What the callback returns.
  package enum Returns: String, Sendable {
    /// Nothing: what the delegate returns is ignored.
    case nothing
    /// A boolean: true = handled (the default behaviour is skipped).
    case handled
    /// Info-window content or nil.
    case content
  }

  /// One argument after the map: its name in Lua and the trace, and its type.
  package struct Argument: Sendable, Hashable {
    /// The snake_case name.
    package let name: String
    /// The kind of value the handler receives.
    package let type: Kind

    /// The types of arguments (``type``).
    package enum Kind: String, Sendable, Hashable, CaseIterable {
      /// A boolean.
      case boolean
      /// A camera position.
      case camera
      /// A coordinate.
      case coordinate
      /// A marker.
      case marker
      /// An overlay.
      case overlay
      /// A string.
      case string
      /// A set of map capabilities.
      case capabilities
      /// A list of tapped features.
      case features
      /// A cluster (its position, count and items).
      case cluster
      /// An item of a cluster manager.
      case clusterItem
    }
  }

  /// The handler name.
  package let name: String
  /// The Swift method of ``MapViewDelegate``, as a selector with its return type.
  package let swiftName: String
  /// The arguments after the map, in order.
  package let arguments: [Argument]
  /// How answers compose.
  package let composition: DelegateCallback.Composition
  /// What it returns.
  package let returns: Returns
  /// What it means, in one sentence.
  package let summary: String

  init(
    name: String, swiftName: String, arguments: [(String, Argument.Kind)],
    composition: DelegateCallback.Composition,
    returns: Returns, summary: String
  ) {
    self.name = name
    self.swiftName = swiftName
    self.arguments = arguments.map { Argument(name: $0.0, type: $0.1) }
    self.composition = composition
    self.returns = returns
    self.summary = summary
  }

  /// A notification that returns nothing.
  static func notification(
    _ name: String, _ swiftName: String, _ arguments: [(String, Argument.Kind)], _ summary: String
  ) -> CallbackSignature {
    CallbackSignature(
      name: name, swiftName: swiftName, arguments: arguments, composition: .notification, returns: .nothing,
      summary: summary)
  }
}
