import Foundation

/// A point in Web Mercator world coordinates: the whole world is the unit square,
/// x = 0 at longitude -180 growing east, y = 0 at the north edge growing south.
package struct WorldPoint: Hashable, Sendable {
  /// 0..<1 from longitude -180 eastwards.
  package var x: Double
  /// 0...1 from the north edge (about 85.05 degrees north) southwards.
  package var y: Double
  /// Creates a world point.
  package init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// Web Mercator: the projection of Google's maps, where zoom z draws the world
/// 256 x 2^z points wide (R20).
package enum Mercator {
  /// The WGS 84 equatorial radius in meters, the sphere of Web Mercator.
  package static let earthRadius = 6_378_137.0
  /// The latitude of the square world's north and south edges, in degrees.
  package static let maxLatitude = 85.051_128_779_806_59

  /// Points across the whole world at `zoom`.
  package static func worldSize(zoom: Double) -> Double { 256 * exp2(zoom) }

  /// The world point of a coordinate; latitudes beyond the square world are clamped to its edge.
  package static func worldPoint(_ coordinate: Coordinate) -> WorldPoint {
    let latitude = min(max(coordinate.latitude, -maxLatitude), maxLatitude)
    let sinLat = sin(latitude * .pi / 180)
    let y = 0.5 - log((1 + sinLat) / (1 - sinLat)) / (4 * .pi)
    return WorldPoint(x: Coordinate.wrapLongitude(coordinate.longitude) / 360 + 0.5, y: y)
  }

  /// The coordinate of a world point; x wraps around the world, y is clamped to the square.
  package static func coordinate(_ point: WorldPoint) -> Coordinate {
    let y = min(max(point.y, 0), 1)
    let latitude = 90 - 360 * atan(exp((y - 0.5) * 2 * .pi)) / .pi
    return Coordinate(latitude: latitude, longitude: Coordinate.wrapLongitude((point.x - 0.5) * 360))
  }

  /// The shortest signed horizontal distance from world x `a` to `b`, in -0.5..<0.5 (the world repeats).
  package static func wrappedDelta(from a: Double, to b: Double) -> Double {
    let difference = b - a
    // The remainder of a difference within (-1, 1) is the difference itself: no fmod call.
    var delta = difference.magnitude < 1 ? difference : difference.truncatingRemainder(dividingBy: 1)
    if delta >= 0.5 { delta -= 1 } else if delta < -0.5 { delta += 1 }
    return delta
  }

  /// The coordinate `fraction` of the way from `start` to `end` in world coordinates, the
  /// short way around the world (marker drags and position animations).
  package static func interpolate(from start: WorldPoint, to end: Coordinate, fraction: Double) -> Coordinate {
    let target = worldPoint(end)
    let dx = wrappedDelta(from: start.x, to: target.x)
    return coordinate(WorldPoint(x: start.x + dx * fraction, y: start.y + (target.y - start.y) * fraction))
  }

  /// Meters on the ground per world unit at `latitude` (the Mercator scale factor).
  package static func metersPerWorldUnit(atLatitude latitude: Double) -> Double {
    2 * .pi * earthRadius * cos(min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180)
  }
}

/// The world point of the coordinate projected last through it: projecting the same
/// coordinate again, bit for bit, costs two comparisons instead of a sine and a logarithm,
/// and gives the same bits (``Mercator/worldPoint(_:)`` is a pure function). A tap's
/// centring projects the selected marker's position, and the next tap's R16 check projects
/// it again.
struct WorldPointMemo {
  private var latitudeBits: UInt64 = 0
  private var longitudeBits: UInt64 = 0
  private var world: WorldPoint?

  /// ``Mercator/worldPoint(_:)`` of `coordinate`, remembered.
  mutating func worldPoint(_ coordinate: Coordinate) -> WorldPoint {
    let latitude = coordinate.latitude.bitPattern, longitude = coordinate.longitude.bitPattern
    if let world, latitude == latitudeBits, longitude == longitudeBits { return world }
    let computed = Mercator.worldPoint(coordinate)
    latitudeBits = latitude
    longitudeBits = longitude
    world = computed
    return computed
  }
}
