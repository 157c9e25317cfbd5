import WaymarkCore

/// A ring (closed) or a path (open) of world points with its bounding box: land, the
/// graticule and overlays are drawn from these.
///
/// The points are taken as they are (x may leave 0..<1): a shape that crosses the
/// antimeridian keeps going east past x = 1 rather than jumping back, and ``ShapeProjector``
/// draws whichever copies of it the camera sees.
struct WorldShape {
  /// The points, in order.
  let points: [WorldPoint]
  /// Whether the last point joins the first.
  let closed: Bool
  /// The westmost x.
  let minX: Double
  /// The eastmost x.
  let maxX: Double
  /// The northmost y.
  let minY: Double
  /// The southmost y.
  let maxY: Double

  /// A shape through `points`.
  init(_ points: [WorldPoint], closed: Bool) {
    self.points = points
    self.closed = closed
    var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
    for point in points {
      minX = min(minX, point.x)
      maxX = max(maxX, point.x)
      minY = min(minY, point.y)
      maxY = max(maxY, point.y)
    }
    (self.minX, self.maxX, self.minY, self.maxY) = (minX, maxX, minY, maxY)
  }

  /// A shape through coordinates, each taken the short way around the world from the one
  /// before it, so that a line across the antimeridian stays one line.
  init(_ coordinates: [Coordinate], closed: Bool) {
    var points: [WorldPoint] = []
    points.reserveCapacity(coordinates.count)
    for coordinate in coordinates {
      var world = Mercator.worldPoint(coordinate)
      if let last = points.last { world.x = last.x + Mercator.wrappedDelta(from: last.x, to: world.x) }
      points.append(world)
    }
    self.init(points, closed: closed)
  }
}
