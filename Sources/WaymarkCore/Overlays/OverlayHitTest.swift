import Foundation

/// Whether a tap hits an overlay's shape (R15).
enum OverlayHitTest {
  /// Whether `point` on the screen hits `shape`; lines get at least `tolerance` points each side.
  static func hits(
    _ shape: OverlayShape, at point: Point, coordinate: Coordinate, projection: Projection, tolerance: Double
  )
    -> Bool
  {
    switch shape {
    case .polyline(let path, let width):
      let points = path.compactMap { projection.point(for: $0) }
      let reach = max(width / 2, tolerance)
      if points.count == 1 { return points[0].distance(to: point) <= reach }
      for index in points.indices.dropLast()
      where distance(from: point, toSegment: points[index], points[index + 1]) <= reach {
        return true
      }
      return false
    case .polygon(let outer, let holes):
      guard ringContains(outer, coordinate) else { return false }
      return !holes.contains { ringContains($0, coordinate) }
    case .circle(let center, let radius):
      return center.distance(to: coordinate) <= radius
    case .groundOverlay(let bounds, _):
      return bounds.contains(coordinate)
    }
  }

  /// Even-odd point-in-polygon on Web Mercator coordinates, the ring taken the short way
  /// around the world from the tested point.
  static func ringContains(_ ring: [Coordinate], _ coordinate: Coordinate) -> Bool {
    let origin = Mercator.worldPoint(coordinate)
    let points = ring.map { vertex -> (Double, Double) in
      let world = Mercator.worldPoint(vertex)
      return (Mercator.wrappedDelta(from: origin.x, to: world.x), world.y - origin.y)
    }
    var inside = false
    var previous = points[points.count - 1]
    for current in points {
      if (current.1 > 0) != (previous.1 > 0) {
        let crossing = previous.0 + (0 - previous.1) * (current.0 - previous.0) / (current.1 - previous.1)
        if crossing > 0 { inside.toggle() }
      }
      previous = current
    }
    return inside
  }

  /// Distance in points from `p` to the segment `a`-`b`.
  static func distance(from p: Point, toSegment a: Point, _ b: Point) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    guard lengthSquared > 0 else { return p.distance(to: a) }
    let t = min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared, 0), 1)
    return p.distance(to: Point(x: a.x + t * dx, y: a.y + t * dy))
  }
}
