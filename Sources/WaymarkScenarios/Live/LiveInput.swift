import WaymarkCore
import WaymarkScripting

/// One input a person gives a live map: the finger's taps and gestures at screen points
/// (points of the map's view, origin top left), and time.
public enum LiveInput: Sendable, Hashable {
  /// A tap at a point: a marker, its info window, an overlay, a POI or the map (R4-R17).
  case tap(Point)
  /// A long press at a point (R16, R18, R19).
  case longPress(Point)
  /// A double tap: zoom in by one level about the point (R25).
  case doubleTap(Point)
  /// A tap on the shown info window (R16).
  case tapInfoWindow
  /// A long press on the shown info window (R16).
  case longPressInfoWindow
  /// Drags the marker with this id to a point over `duration` seconds (R18).
  case drag(marker: String, to: Point, duration: Double)
  /// A pan: the map follows the finger by `dx`, `dy` points (R25).
  case pan(dx: Double, dy: Double, duration: Double)
  /// A pinch: zoom by levels about a point, the centre if nil (R25).
  case pinch(zoomBy: Double, around: Point?, duration: Double)
  /// A two-finger rotation by degrees clockwise (R25).
  case rotate(degrees: Double, duration: Double)
  /// A two-finger tilt by degrees (R22, R25).
  case tilt(degrees: Double, duration: Double)
  /// A tap on the my-location button (R32).
  case tapMyLocationButton
  /// A tap on the compass button: the camera turns north (R69).
  case tapCompass
  /// Advances virtual time by seconds, running frames and timers.
  case advance(seconds: Double)

  /// Applies the input to `map`; throws what the map refuses, naming the field and value.
  /// An `advance` stops early when `interruption` gives a reason (``MapView/advance(by:interruption:)``).
  func apply(to map: MapView, interruption: (() -> String?)? = nil) throws(MapError) {
    switch self {
    case .tap(let point): try map.tap(at: point)
    case .longPress(let point): try map.longPress(at: point)
    case .doubleTap(let point): try map.doubleTap(at: point)
    case .tapInfoWindow: try map.tapInfoWindow()
    case .longPressInfoWindow: try map.longPressInfoWindow()
    case .drag(let id, let point, let duration):
      guard let marker = map.marker(id: id) else {
        throw .invalidValue(field: "drag.marker", value: id, reason: "is not a marker on the map")
      }
      guard let destination = map.projection.coordinate(for: point) else {
        throw .invalidValue(
          field: "drag", value: "(\(formatNumber(point.x)), \(formatNumber(point.y)))",
          reason: "is beyond the horizon")
      }
      try map.drag(marker, to: destination, duration: duration)
    case .pan(let dx, let dy, let duration): try map.pan(dx: dx, dy: dy, duration: duration)
    case .pinch(let delta, let point, let duration): try map.pinch(zoomBy: delta, around: point, duration: duration)
    case .rotate(let degrees, let duration): try map.rotate(by: degrees, duration: duration)
    case .tilt(let degrees, let duration): try map.tilt(by: degrees, duration: duration)
    case .tapMyLocationButton: try map.tapMyLocationButton()
    case .tapCompass: try map.tapCompass()
    case .advance(let seconds): try map.advance(by: seconds, interruption: interruption)
    }
  }
}
