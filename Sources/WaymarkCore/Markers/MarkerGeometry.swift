import Foundation

/// How far icons reach from their anchors on the screen, in points, in each direction: the
/// largest over every marker the map has held (it never shrinks until `clear()`). A tap
/// can only hit markers whose anchors lie within this reach of it.
struct IconExtent {
  var left = 0.0
  var right = 0.0
  var up = 0.0
  var down = 0.0

  /// The farthest an icon can reach from its anchor, in points: beyond any position a tap
  /// accepts (``Point/largestMagnitude``), so larger (or infinite) reaches change nothing.
  static let largestReach = 1e7

  /// Grows to cover `marker`'s icon: its rectangle if upright, else the circle it turns in.
  mutating func include(_ marker: Marker) {
    defer {
      left = min(left, Self.largestReach)
      right = min(right, Self.largestReach)
      up = min(up, Self.largestReach)
      down = min(down, Self.largestReach)
    }
    let size = marker.largestIconSize, anchor = marker.groundAnchor
    if marker.rotation == 0 && !marker.flat {
      left = max(left, anchor.x * size.width, 0)
      right = max(right, (1 - anchor.x) * size.width, 0)
      up = max(up, anchor.y * size.height, 0)
      down = max(down, (1 - anchor.y) * size.height, 0)
    } else {
      let dx = max(abs(anchor.x), abs(1 - anchor.x)) * size.width
      let dy = max(abs(anchor.y), abs(1 - anchor.y)) * size.height
      let reach = (dx * dx + dy * dy).squareRoot()
      left = max(left, reach)
      right = max(right, reach)
      up = max(up, reach)
      down = max(down, reach)
    }
  }
}

/// Where a marker's icon is on the screen (R4): the rectangle hit-testing tests is the one
/// renderers draw, inside the icon's insets (R37: unit coordinates are of that rectangle).
/// A flat marker lies on the ground (R44): it turns with the bearing and,
/// under tilt, its box is foreshortened as the ground is, its screen-vertical extent scaled
/// by `foreshortening` (the cosine of the tilt, ``Projection/groundForeshortening``) after
/// it is turned, the ground's projection at the anchor.
package enum MarkerGeometry {
  /// The screen angle of the icon in degrees: its rotation, and for flat markers also the
  /// map's bearing (R4).
  package static func angle(of marker: Marker, bearing: Double) -> Double {
    marker.flat ? marker.rotation - bearing : marker.rotation
  }

  /// The screen point of a point of the icon given in unit coordinates (0,0 top-left).
  package static func point(
    _ unit: Point, of marker: Marker, at anchorPoint: Point, bearing: Double, foreshortening: Double = 1
  ) -> Point {
    let size = marker.alignmentSize
    let dx = (unit.x - marker.groundAnchor.x) * size.width
    let dy = (unit.y - marker.groundAnchor.y) * size.height
    let (c, s) = cosSin(angle(of: marker, bearing: bearing) * .pi / 180)
    let squash = marker.flat ? foreshortening : 1
    return Point(x: anchorPoint.x + dx * c - dy * s, y: anchorPoint.y + (dx * s + dy * c) * squash)
  }

  /// The smallest upright screen rectangle holding the icon, placed and rotated.
  package static func bounds(
    of marker: Marker, at anchorPoint: Point, bearing: Double, foreshortening: Double = 1
  ) -> Rect {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    for corner in [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 1)] {
      let p = point(corner, of: marker, at: anchorPoint, bearing: bearing, foreshortening: foreshortening)
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
    }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// Whether `tap` falls on the icon's rectangle, placed by the anchor, rotated, and for a
  /// flat marker foreshortened (R4, R44).
  static func contains(
    _ tap: Point, marker: Marker, at anchorPoint: Point, bearing: Double, foreshortening: Double = 1
  ) -> Bool {
    let size = marker.alignmentSize
    let (c, s) = cosSin(-angle(of: marker, bearing: bearing) * .pi / 180)
    let dx = tap.x - anchorPoint.x
    var dy = tap.y - anchorPoint.y
    // Asked in this order so that a tap on an untilted map reads no flag (R44).
    if foreshortening != 1 && marker.flat { dy /= max(foreshortening, .leastNonzeroMagnitude) }
    let ux = (dx * c - dy * s) / max(size.width, .leastNonzeroMagnitude) + marker.groundAnchor.x
    let uy = (dx * s + dy * c) / max(size.height, .leastNonzeroMagnitude) + marker.groundAnchor.y
    return ux >= 0 && ux <= 1 && uy >= 0 && uy <= 1
  }

  /// The cosine and sine of `radians`, without calling libm for an upright icon: at 0 they
  /// are exactly 1 and `radians` itself (cos ±0 = 1, sin ±0 = ±0).
  @inline(__always)
  private static func cosSin(_ radians: Double) -> (Double, Double) {
    radians == 0 ? (1, radians) : (cos(radians), sin(radians))
  }
}
