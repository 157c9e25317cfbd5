/// A rectangle on the globe between a north-east and a south-west corner (R30), like
/// `GMSCoordinateBounds`. It may cross the antimeridian: then `southWest.longitude` is
/// greater than `northEast.longitude`.
///
/// The empty bounds (``empty``) is invalid: it contains nothing, and including a
/// coordinate into it gives the bounds of that single point.
public struct CoordinateBounds: Hashable, Sendable, CustomStringConvertible {
  /// The north-east corner; nil for the empty (invalid) bounds.
  public let northEast: Coordinate?
  /// The south-west corner; nil for the empty (invalid) bounds.
  public let southWest: Coordinate?

  /// The empty, invalid bounds.
  public static let empty = CoordinateBounds(corners: nil, southWest: nil)

  private init(corners northEast: Coordinate?, southWest: Coordinate?) {
    self.northEast = northEast
    self.southWest = southWest
  }

  /// Bounds with the given corners, taken as they are (the longitude range runs east from
  /// `southWest` to `northEast`, crossing the antimeridian if `southWest` is further east).
  ///
  /// Throws if a corner is not a valid coordinate or the north edge is south of the south edge.
  public init(northEast: Coordinate, southWest: Coordinate) throws(MapError) {
    let ne = try northEast.validated("bounds.northEast").wrapped
    let sw = try southWest.validated("bounds.southWest").wrapped
    guard ne.latitude >= sw.latitude else {
      throw .invalidRelation(
        field: "bounds.northEast.latitude", value: formatNumber(ne.latitude), relation: "is south of",
        other: "bounds.southWest.latitude", otherValue: formatNumber(sw.latitude))
    }
    self.init(corners: ne, southWest: sw)
  }

  /// The smallest bounds containing both coordinates, taking the shorter way across
  /// longitude (so the result may cross the antimeridian) (R30).
  public init(_ a: Coordinate, _ b: Coordinate) throws(MapError) {
    let a = try a.validated("bounds.coordinate").wrapped
    let b = try b.validated("bounds.coordinate").wrapped
    let north = max(a.latitude, b.latitude), south = min(a.latitude, b.latitude)
    let eastward = CoordinateBounds.eastwardSpan(from: a.longitude, to: b.longitude)
    let (west, east) = eastward <= 180 ? (a.longitude, b.longitude) : (b.longitude, a.longitude)
    self.init(
      corners: Coordinate(latitude: north, longitude: east),
      southWest: Coordinate(latitude: south, longitude: west))
  }

  /// The smallest bounds containing every coordinate (the empty bounds for none).
  public init(including coordinates: [Coordinate]) throws(MapError) {
    var bounds = CoordinateBounds.empty
    for coordinate in coordinates { bounds = try bounds.including(coordinate) }
    self = bounds
  }

  /// Whether the bounds is valid (not empty).
  public var isValid: Bool { northEast != nil }

  /// Whether the longitude range crosses the antimeridian.
  package var crossesAntimeridian: Bool {
    guard let ne = northEast, let sw = southWest else { return false }
    return sw.longitude > ne.longitude
  }

  /// Degrees of longitude from the west edge east to the east edge, 0...360.
  package var longitudeSpan: Double {
    guard let ne = northEast, let sw = southWest else { return 0 }
    return CoordinateBounds.eastwardSpan(from: sw.longitude, to: ne.longitude)
  }

  /// Whether `coordinate` lies inside, edges included (R30); never for the empty bounds.
  public func contains(_ coordinate: Coordinate) -> Bool {
    guard let ne = northEast, let sw = southWest else { return false }
    guard coordinate.latitude >= sw.latitude, coordinate.latitude <= ne.latitude else { return false }
    let longitude = Coordinate.wrapLongitude(coordinate.longitude)
    return CoordinateBounds.eastwardSpan(from: sw.longitude, to: longitude) <= longitudeSpan
  }

  /// The point of these bounds nearest `coordinate` (R66): its latitude clamped to the
  /// bounds', its longitude moved to the nearer edge when outside the range (the way round
  /// the world that is shorter). `coordinate` itself when inside, or for the empty bounds.
  package func clamp(_ coordinate: Coordinate) -> Coordinate {
    guard let ne = northEast, let sw = southWest, !contains(coordinate) else { return coordinate }
    let latitude = min(max(coordinate.latitude, sw.latitude), ne.latitude)
    var longitude = Coordinate.wrapLongitude(coordinate.longitude)
    if CoordinateBounds.eastwardSpan(from: sw.longitude, to: longitude) > longitudeSpan {
      let pastEast = CoordinateBounds.eastwardSpan(from: ne.longitude, to: longitude)
      let beforeWest = CoordinateBounds.eastwardSpan(from: longitude, to: sw.longitude)
      longitude = pastEast <= beforeWest ? ne.longitude : sw.longitude
    }
    return Coordinate(latitude: latitude, longitude: longitude)
  }

  /// These bounds grown to include `coordinate`, extending east or west whichever is
  /// shorter; for the empty bounds, the bounds of that single point (R30).
  public func including(_ coordinate: Coordinate) throws(MapError) -> CoordinateBounds {
    let c = try coordinate.validated("bounds.coordinate").wrapped
    guard let ne = northEast, let sw = southWest else { return CoordinateBounds(corners: c, southWest: c) }
    let north = max(ne.latitude, c.latitude), south = min(sw.latitude, c.latitude)
    var east = ne.longitude, west = sw.longitude
    if !contains(Coordinate(latitude: sw.latitude, longitude: c.longitude)) {
      let growEast = CoordinateBounds.eastwardSpan(from: ne.longitude, to: c.longitude)
      let growWest = CoordinateBounds.eastwardSpan(from: c.longitude, to: sw.longitude)
      if growEast <= growWest { east = c.longitude } else { west = c.longitude }
    }
    return CoordinateBounds(
      corners: Coordinate(latitude: north, longitude: east),
      southWest: Coordinate(latitude: south, longitude: west))
  }

  /// The union of two bounds (each side's corners included into the other).
  package func including(_ other: CoordinateBounds) throws(MapError) -> CoordinateBounds {
    guard let ne = other.northEast, let sw = other.southWest else { return self }
    return try including(sw).including(ne)
  }

  /// The centre: the middle latitude and the middle of the longitude range.
  package var center: Coordinate? {
    guard let ne = northEast, let sw = southWest else { return nil }
    return Coordinate(
      latitude: (ne.latitude + sw.latitude) / 2,
      longitude: Coordinate.wrapLongitude(sw.longitude + longitudeSpan / 2))
  }

  /// "[sw ... ne]" or "empty".
  public var description: String {
    guard let ne = northEast, let sw = southWest else { return "empty" }
    return "[\(sw) ... \(ne)]"
  }

  /// Degrees from `west` eastwards to `east`, 0..<360.
  static func eastwardSpan(from west: Double, to east: Double) -> Double {
    let span = (east - west).truncatingRemainder(dividingBy: 360)
    return span < 0 ? span + 360 : span
  }
}
