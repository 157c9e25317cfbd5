import Foundation

/// Where the camera looks from (R20), like `GMSCameraPosition`: a target coordinate, a zoom,
/// a bearing in degrees clockwise from north and a viewing angle (tilt) in degrees from
/// straight down.
///
/// Values are stored as given; the map clamps them (`clamped(minZoom:maxZoom:)`):
/// latitude to -85...85, longitude wrapped into -180..<180, bearing into 0..<360, zoom into
/// the map's range, tilt to the zoom's maximum (R20-R22).
public struct CameraPosition: Hashable, Sendable, CustomStringConvertible {
  /// The coordinate at the visual centre of the map.
  public var target: Coordinate
  /// 0 shows the whole world 256 points wide; each step doubles the scale.
  public var zoom: Double
  /// Degrees clockwise from north that point up on the screen.
  public var bearing: Double
  /// Degrees from straight down (the viewing angle), 0 = looking straight down.
  public var tilt: Double

  /// Creates a camera position.
  public init(target: Coordinate, zoom: Double, bearing: Double = 0, tilt: Double = 0) {
    self.target = target
    self.zoom = zoom
    self.bearing = bearing
    self.tilt = tilt
  }

  /// The zoom levels a map may allow at all: a map's own range (R21) is clamped into these.
  static let zoomLimits = 0.0...30.0

  /// The latitude range of camera targets (R20).
  package static let latitudeRange = -85.0...85.0

  /// The largest tilt allowed at `zoom` (R22): 30 degrees at zoom 10 and below, 65 at 16 and
  /// above, linear in between (the in-between is our choice).
  package static func maximumTilt(atZoom zoom: Double) -> Double {
    if zoom <= 10 { return 30 }
    if zoom >= 16 { return 65 }
    return 30 + (zoom - 10) / 6 * 35
  }

  /// This position with Google's clamping applied (R20-R22).
  package func clamped(minZoom: Double, maxZoom: Double) -> CameraPosition {
    let zoom = min(max(zoom, minZoom), maxZoom)
    return CameraPosition(
      target: Coordinate(
        latitude: min(max(target.latitude, Self.latitudeRange.lowerBound), Self.latitudeRange.upperBound),
        longitude: Coordinate.wrapLongitude(target.longitude)),
      zoom: zoom,
      bearing: Self.wrapBearing(bearing),
      tilt: min(max(tilt, 0), Self.maximumTilt(atZoom: zoom)))
  }

  /// Wraps degrees into 0..<360.
  package static func wrapBearing(_ bearing: Double) -> Double {
    // The remainder of a bearing in 0..<360 is the bearing itself (-0 included).
    if bearing >= 0 && bearing < 360 { return bearing }
    return wrapBearingOutsideRange(bearing)
  }

  /// ``wrapBearing(_:)`` of a bearing outside 0..<360. Out of line: inlined, the optimizer
  /// computed the remainder (a call to `fmod`) before the range test.
  @inline(never)
  private static func wrapBearingOutsideRange(_ bearing: Double) -> Double {
    let wrapped = bearing.truncatingRemainder(dividingBy: 360)
    let positive = wrapped < 0 ? wrapped + 360 : wrapped
    return positive >= 360 ? 0 : positive
  }

  /// Throws unless every field is finite and the target latitude is within -90...90.
  /// (Values Google clamps are clamped later, not rejected.)
  package func validated(_ field: String) throws(MapError) -> CameraPosition {
    _ = try target.validated("\(field).target")
    try MapError.requireFinite(zoom, "\(field).zoom")
    try MapError.requireFinite(bearing, "\(field).bearing")
    try MapError.requireFinite(tilt, "\(field).tilt")
    return self
  }

  /// "target zoom bearing tilt" with short numbers, each in its range (`rounded(targetDecimals:zoomDecimals:angleDecimals:)`).
  public var description: String {
    let shown = rounded(targetDecimals: 6, zoomDecimals: 4, angleDecimals: 2)
    return
      "\(shown.target.description(decimals: 6)) zoom \(formatNumber(shown.zoom)) bearing \(formatNumber(shown.bearing)) tilt \(formatNumber(shown.tilt))"
  }

  /// This position with each number rounded as traces print it, every invariant kept (R20,
  /// R22): the target as ``Coordinate/rounded(decimals:)`` rounds it, the bearing within
  /// 0..<360 (359.99999999999994 gives 0), the tilt within 0 and the zoom's maximum.
  package func rounded(targetDecimals: Int, zoomDecimals: Int, angleDecimals: Int) -> CameraPosition {
    CameraPosition(
      target: target.rounded(decimals: targetDecimals),
      zoom: roundNumber(zoom, decimals: zoomDecimals),
      bearing: roundNumber(bearing, decimals: angleDecimals, wrappingIn: 0..<360),
      tilt: roundNumber(tilt, decimals: angleDecimals, within: 0...Self.maximumTilt(atZoom: zoom)))
  }

  /// Whether every field is within `tolerance` of `other`'s (bearing compared around the circle).
  package func isClose(to other: CameraPosition, tolerance: Double = 1e-6) -> Bool {
    abs(target.latitude - other.target.latitude) <= tolerance
      && abs(Coordinate.wrapLongitude(target.longitude - other.target.longitude)) <= tolerance
      && abs(zoom - other.zoom) <= tolerance
      && abs(CameraPosition.wrapBearing(bearing - other.bearing + 180) - 180) <= tolerance
      && abs(tilt - other.tilt) <= tolerance
  }
}
