import Foundation

/// A geographic coordinate in degrees (WGS 84), like `CLLocationCoordinate2D`.
///
/// Any two doubles can be stored; entry points of the map validate them with
/// `validated(_:)` (finite, latitude within -90...90) and throw a
/// ``MapError`` that names the field and the value.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
  /// Degrees north of the equator, -90...90.
  public var latitude: Double
  /// Degrees east of Greenwich; any finite value (the map wraps it into -180..<180).
  public var longitude: Double

  /// Creates a coordinate from a latitude and a longitude in degrees.
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// "(lat, lng)" with the numbers as Swift prints them.
  public var description: String { "(\(latitude), \(longitude))" }

  /// "(lat, lng)" rounded to `digits` decimals as traces print it (``rounded(decimals:)``).
  package func description(decimals digits: Int) -> String {
    let shown = rounded(decimals: digits)
    return "(\(formatNumber(shown.latitude)), \(formatNumber(shown.longitude)))"
  }

  /// This coordinate rounded to `digits` decimals with its ranges kept (R20): the latitude
  /// within -90...90, the longitude within -180..<180 (179.9999999 gives -180, not 180).
  package func rounded(decimals digits: Int) -> Coordinate {
    Coordinate(
      latitude: roundNumber(latitude, decimals: digits, within: -90...90),
      longitude: roundNumber(longitude, decimals: digits, wrappingIn: -180..<180))
  }

  /// This coordinate if it is usable on a map; otherwise an error naming `field`.
  ///
  /// Rejects NaN and infinite values and latitudes outside -90...90.
  package func validated(_ field: @autoclosure () -> String) throws(MapError) -> Coordinate {
    guard latitude.isFinite else {
      throw .invalidValue(field: "\(field()).latitude", value: formatNumber(latitude), reason: "is not a finite number")
    }
    guard longitude.isFinite else {
      throw .invalidValue(
        field: "\(field()).longitude", value: formatNumber(longitude), reason: "is not a finite number")
    }
    guard (-90.0...90.0).contains(latitude) else {
      throw .invalidValue(field: "\(field()).latitude", value: formatNumber(latitude), reason: "is outside -90...90")
    }
    return self
  }

  /// The same place with the longitude wrapped into -180..<180.
  package var wrapped: Coordinate {
    Coordinate(latitude: latitude, longitude: Coordinate.wrapLongitude(longitude))
  }

  /// Wraps a longitude in degrees into -180..<180.
  package static func wrapLongitude(_ longitude: Double) -> Double {
    if (-180.0..<180.0).contains(longitude) { return longitude }
    return wrapLongitudeOutsideRange(longitude)
  }

  /// ``wrapLongitude(_:)`` of a longitude outside -180..<180. Out of line: inlined, the
  /// optimizer computed the remainder (a call to `fmod`) before the range test, for every
  /// longitude.
  @inline(never)
  private static func wrapLongitudeOutsideRange(_ longitude: Double) -> Double {
    let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
    return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
  }

  /// Great-circle distance in meters to `other` (haversine, on the WGS 84 equatorial radius).
  package func distance(to other: Coordinate) -> Double {
    let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
    let dφ = φ2 - φ1, dλ = (other.longitude - longitude) * .pi / 180
    let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
    return 2 * Mercator.earthRadius * asin(min(1, h.squareRoot()))
  }

  /// Initial great-circle heading from this coordinate to `other`, in degrees clockwise from north, 0..<360.
  package func heading(to other: Coordinate) -> Double {
    let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
    let dλ = (other.longitude - longitude) * .pi / 180
    let y = sin(dλ) * cos(φ2)
    let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
    let degrees = atan2(y, x) * 180 / .pi
    return degrees < 0 ? degrees + 360 : degrees
  }
}

/// A point on the screen in points: x grows to the right, y grows down.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// Points from the left edge.
  public var x: Double
  /// Points from the top edge.
  public var y: Double
  /// The point `x` points right and `y` points down of the top-left corner.
  @inlinable
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  /// "(x, y)".
  public var description: String { "(\(x), \(y))" }

  /// Distance in points to `other`.
  package func distance(to other: Point) -> Double {
    ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
  }

  /// The largest magnitude of a screen position or offset the map accepts, in points: a
  /// million points is a hundred times any screen, and keeps every projection finite.
  package static let largestMagnitude = 1e6

  /// This point (or offset) if both values are finite and within ±``largestMagnitude``;
  /// otherwise an error naming `field`.x or `field`.y.
  package func validated(_ field: @autoclosure () -> String) throws(MapError) -> Point {
    let range = -Point.largestMagnitude...Point.largestMagnitude
    try MapError.require(x, in: range, "\(field()).x")
    try MapError.require(y, in: range, "\(field()).y")
    return self
  }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// Points across.
  public var width: Double
  /// Points down.
  public var height: Double
  /// A size of `width` by `height` points.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
  /// "WxH".
  public var description: String { "\(width)x\(height)" }
  /// Zero by zero.
  package static let zero = Size(width: 0, height: 0)

  /// The largest side of a view, an icon or an inset, in points (ten times a large screen).
  package static let largestSide = 100_000.0

  /// This size if both sides are finite, not negative and at most ``largestSide``; otherwise
  /// an error naming `field`.
  package func validated(_ field: String) throws(MapError) -> Size {
    for (name, value) in [("width", width), ("height", height)] {
      try MapError.requireNonNegative(value, atMost: Size.largestSide, "\(field).\(name)")
    }
    return self
  }
}

/// Insets from the edges of a rectangle, in points (like `UIEdgeInsets`).
public struct EdgeInsets: Hashable, Sendable {
  /// Points from the top edge.
  public var top: Double
  /// Points from the left edge.
  public var left: Double
  /// Points from the bottom edge.
  public var bottom: Double
  /// Points from the right edge.
  public var right: Double
  /// Creates insets, each edge given.
  public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }
  /// The same inset on every edge.
  package init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }
  /// No inset.
  public static let zero = EdgeInsets()
  /// `left + right`.
  package var horizontal: Double { left + right }
  /// `top + bottom`.
  package var vertical: Double { top + bottom }

  /// These insets if every edge is finite, not negative and at most
  /// ``Size/largestSide``; otherwise an error naming `field`.
  package func validated(_ field: String) throws(MapError) -> EdgeInsets {
    for (name, value) in [("top", top), ("left", left), ("bottom", bottom), ("right", right)] {
      try MapError.requireNonNegative(value, atMost: Size.largestSide, "\(field).\(name)")
    }
    return self
  }
}

/// An axis-aligned rectangle in points (on the screen, or in an info window): its top-left
/// corner and its size, y down.
package struct Rect: Hashable, Sendable {
  /// The left edge.
  package var x: Double
  /// The top edge.
  package var y: Double
  /// Points across.
  package var width: Double
  /// Points down.
  package var height: Double

  /// Creates a rectangle from its top-left corner and size.
  package init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The top-left corner.
  package var origin: Point { Point(x: x, y: y) }
  /// The width and height.
  package var size: Size { Size(width: width, height: height) }
  /// The left edge.
  package var minX: Double { x }
  /// The top edge.
  package var minY: Double { y }
  /// The right edge, `x + width`.
  package var maxX: Double { x + width }
  /// The bottom edge, `y + height`.
  package var maxY: Double { y + height }
  /// The horizontal centre.
  package var midX: Double { x + width / 2 }
  /// The vertical centre.
  package var midY: Double { y + height / 2 }

  /// Whether `point` lies inside: the left and top edges included, the right and bottom
  /// excluded (as `CGRect.contains`).
  package func contains(_ point: Point) -> Bool {
    point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
  }

  /// The same rectangle moved by `dx` to the right and `dy` down.
  package func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: x + dx, y: y + dy, width: width, height: height)
  }
}
