import WaymarkCore

/// A delegate that records every callback as a short line and answers through closures a
/// test sets: what swift-log's testing handler is to a logger.
///
/// It hears each callback as one `DelegateEvent` (``mapView(_:receive:)``) and writes it
/// the same way for all: the handler name, then, in parentheses, the arguments that say
/// what the callback is about, separated by `:` (a marker's or overlay's id, will_move's
/// gesture flag, a POI's place id and name, capability names and feature place ids joined
/// by `,`, a feature layer's name, a cluster's count, a cluster item's id); cameras and coordinates are left out, and so are the
/// parentheses when nothing is shown: `did_tap_marker(sydney)`, `will_move(true)`,
/// `did_tap_at_coordinate`, `did_tap_features(p1,p2:LOCALITY)`. A new callback is recorded
/// without a change here.
///
/// ```swift
/// let delegate = RecordingDelegate()
/// delegate.tapMarker = { _, marker in marker.id == "secret" }
/// map.delegate = delegate
/// try map.tap(.marker(secret))
/// #expect(delegate.events == ["did_tap_marker(secret)"])
/// ```
public final class RecordingDelegate: DelegateEventHandler {
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
  /// did_tap_cluster's answer (false when nil).
  public var tapCluster: ((MapView, Cluster) -> Bool)?
  /// did_tap_cluster_item's answer (false when nil).
  public var tapClusterItem: ((MapView, ClusterItem) -> Bool)?
  /// Runs on idle_at_camera_position.
  public var idle: ((MapView, CameraPosition) -> Void)?

  /// Creates a delegate that has heard nothing.
  public init() {}

  /// The calls without camera frames and tile/snapshot noise.
  public var events: [String] {
    calls.filter { !Self.noise.contains(String($0.prefix { $0 != "(" })) }
  }

  /// The names of the callbacks ``events`` leaves out.
  private static let noise = Set(
    [DelegateCallback.didChangeCameraPosition, .didStartTileRendering, .didFinishTileRendering, .snapshotReady].map(
      \.name))

  /// Records the event's line, then answers with (or runs) the closure of its callback.
  public func mapView(_ mapView: MapView, receive event: DelegateEvent) -> CallbackAnswer {
    calls.append(Self.line(of: event))
    switch event {
    case .didTapMarker(let marker): return CallbackAnswer(handled: tapMarker?(mapView, marker) ?? false)
    case .markerInfoWindow(let marker): return CallbackAnswer(content: infoWindow?(marker))
    case .markerInfoContents(let marker): return CallbackAnswer(content: infoContents?(marker))
    case .didTapPOI(let poi): return CallbackAnswer(handled: tapPOI?(poi.placeID) ?? false)
    case .didTapMyLocationButton: return CallbackAnswer(handled: myLocationButton?() ?? false)
    case .idleAtCameraPosition(let camera): idle?(mapView, camera)
    case .didTapAtCoordinate(let coordinate): tapAt?(mapView, coordinate)
    case .didLongPressAtCoordinate(let coordinate): longPressAt?(mapView, coordinate)
    case .didCloseInfoWindow(let marker): closeInfoWindow?(mapView, marker)
    case .didLongPressInfoWindow(let marker): longPressInfoWindow?(mapView, marker)
    case .willMove, .didChangeCameraPosition, .didTapInfoWindow, .didTapOverlay, .didBeginDraggingMarker,
      .didDragMarker, .didEndDraggingMarker, .didTapMyLocation, .didStartTileRendering, .didFinishTileRendering,
      .snapshotReady, .didChangeMapCapabilities, .didTapFeatures, .willRenderClusterMarker, .didRenderClusterMarker:
      break  // recorded only
    case .didTapCluster(let cluster): return CallbackAnswer(handled: tapCluster?(mapView, cluster) ?? false)
    case .didTapClusterItem(let item): return CallbackAnswer(handled: tapClusterItem?(mapView, item) ?? false)
    }
    return .none
  }

  /// The short line of `event`: its handler name, and its shown arguments in parentheses.
  static func line(of event: DelegateEvent) -> String {
    var shown: [String] = []
    event.forEachArgument { value in
      switch value {
      case .boolean(let flag): shown.append(String(flag))
      case .camera, .coordinate: break
      case .marker(let marker): shown.append(marker.id)
      case .overlay(let overlay): shown.append(overlay.id)
      case .string(let text): shown.append(text)
      case .capabilities(let set): shown.append(set.names.joined(separator: ","))
      case .features(let features): shown.append(features.map(\.placeID).joined(separator: ","))
      case .cluster(let cluster): shown.append(String(cluster.count))
      case .clusterItem(let item): shown.append(item.id)
      }
    }
    let name = event.callback.name
    return shown.isEmpty ? name : "\(name)(\(shown.joined(separator: ":")))"
  }
}
