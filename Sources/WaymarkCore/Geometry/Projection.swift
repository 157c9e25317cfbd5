import Foundation

/// The four corners of what the camera sees (R29); a trapezoid on the ground when tilted.
public struct VisibleRegion: Hashable, Sendable {
  /// Bottom-left corner of the padded view.
  public var nearLeft: Coordinate
  /// Bottom-right corner of the padded view.
  public var nearRight: Coordinate
  /// Top-left corner of the padded view (at most the horizon).
  public var farLeft: Coordinate
  /// Top-right corner of the padded view (at most the horizon).
  public var farRight: Coordinate

  /// The smallest bounds containing the four corners.
  package var bounds: CoordinateBounds {
    (try? CoordinateBounds(including: [nearLeft, nearRight, farLeft, farRight])) ?? .empty
  }
}

/// A point on the ground seen from the camera, before perspective: `x` to the right and `y`
/// down the screen, in points from the target at its zoom, and `depth` its distance from the
/// camera along the view. All three are affine in world coordinates, so a straight edge
/// between two ground points can be clipped (against a depth) by interpolating them.
package struct GroundPoint: Hashable, Sendable {
  /// To the right of the target, in points (before perspective).
  package var x: Double
  /// Below the target, in points (before perspective).
  package var y: Double
  /// The distance from the camera along the view, in points; behind the camera when not positive.
  package var depth: Double
  /// Creates a ground point.
  package init(x: Double, y: Double, depth: Double) {
    self.x = x
    self.y = y
    self.depth = depth
  }
}

/// Converts between coordinates and screen points for one camera and view (R29), like
/// `GMSProjection`.
///
/// The model is a pinhole camera over a flat Web Mercator plane: at zoom z one world unit is
/// 256 x 2^z points; the camera looks at the target, which appears at the centre of the
/// padded view; the map turns by the bearing; tilt pitches the camera about the target, so
/// the far side shrinks with distance (perspective). The camera sits 1.5 view heights from
/// the target (a vertical field of view of about 37 degrees, as common map renderers use),
/// so at tilt 0 one ground point is one screen point everywhere.
public struct Projection: Sendable {
  /// The camera, already clamped.
  package let camera: CameraPosition
  /// The view's size in points.
  package let viewSize: Size
  /// Padding: the visual centre is the centre of the view minus these insets (R29).
  package let padding: EdgeInsets

  let center: Point
  let targetWorld: WorldPoint
  let scale: Double
  let cosBearing: Double
  let sinBearing: Double
  let cosTilt: Double
  let sinTilt: Double
  let distance: Double

  /// Creates the projection of a camera in a view of `viewSize` with `padding`.
  public init(camera: CameraPosition, viewSize: Size, padding: EdgeInsets = .zero) {
    self.camera = camera
    self.viewSize = viewSize
    self.padding = padding
    center = Point(
      x: padding.left + (viewSize.width - padding.left - padding.right) / 2,
      y: padding.top + (viewSize.height - padding.top - padding.bottom) / 2)
    targetWorld = Mercator.worldPoint(camera.target)
    scale = Mercator.worldSize(zoom: camera.zoom)
    let bearing = camera.bearing * .pi / 180, tilt = camera.tilt * .pi / 180
    cosBearing = cos(bearing)
    sinBearing = sin(bearing)
    cosTilt = cos(tilt)
    sinTilt = sin(tilt)
    distance = 1.5 * max(viewSize.height, 1)
  }

  /// The padded view rectangle, where the map is "visible" (R29).
  package var paddedRect: Rect {
    Rect(
      x: padding.left, y: padding.top,
      width: viewSize.width - padding.left - padding.right,
      height: viewSize.height - padding.top - padding.bottom)
  }

  /// Points per world unit at this zoom.
  package var pointsPerWorldUnit: Double { scale }

  /// The screen point of a coordinate, or nil when it lies behind the camera (beyond the
  /// horizon of a tilted view). The world repeats east-west: the nearest copy is used.
  public func point(for coordinate: Coordinate) -> Point? {
    point(forWorld: Mercator.worldPoint(coordinate))
  }

  /// The screen point of a world point (nearest copy), or nil beyond the horizon.
  package func point(forWorld world: WorldPoint) -> Point? {
    point(forGround: ground(dx: Mercator.wrappedDelta(from: targetWorld.x, to: world.x), dy: world.y - targetWorld.y))
  }

  /// Where a world point known only to lie within `cell` world units east and south of
  /// `world` (the cell a spatial index keeps) is on the screen: a point, and how far along
  /// each axis, in points, the exact point's screen point can be from it, rounding
  /// included. Nil when no such bound is cheap: a tilted view (perspective), or a point
  /// about half a world from the target, whose nearest copy may be either.
  package func approximatePoint(forWorld world: WorldPoint, within cell: Double) -> (point: Point, error: Double)? {
    guard sinTilt == 0 else { return nil }
    let dx = Mercator.wrappedDelta(from: targetWorld.x, to: world.x)
    guard dx.magnitude < 0.5 - 2 * cell, let point = point(forWorld: world) else { return nil }
    // The cell's diagonal turned onto an axis, and the rounding of both computations.
    return (point, scale * cell * 1.5 + 1e-6)
  }

  /// The ground point of a world point taken as it is, not wrapped to the copy of the world
  /// nearest the target: shapes that cross the antimeridian, or a world seen several times
  /// at low zoom, are drawn from these.
  package func groundPoint(forUnwrappedWorld world: WorldPoint) -> GroundPoint {
    ground(dx: world.x - targetWorld.x, dy: world.y - targetWorld.y)
  }

  /// The screen point of a ground point, or nil when it is behind the camera.
  package func point(forGround ground: GroundPoint) -> Point? {
    guard ground.depth > distance * 1e-3 else { return nil }
    let factor = distance / ground.depth
    let point = Point(x: center.x + ground.x * factor, y: center.y + ground.y * cosTilt * factor)
    return point.x.isFinite && point.y.isFinite ? point : nil
  }

  /// How much a length along the ground's forward direction shrinks on the screen near the
  /// target: the cosine of the tilt (1 looking straight down). Flat markers are
  /// foreshortened by it (R44).
  package var groundForeshortening: Double { cosTilt }

  /// How far the camera is from the target, in points: the depth of the target itself.
  package var cameraDistance: Double { distance }

  private func ground(dx worldDX: Double, dy worldDY: Double) -> GroundPoint {
    let dx = worldDX * scale, dy = worldDY * scale
    let groundX = dx * cosBearing + dy * sinBearing
    let groundY = -dx * sinBearing + dy * cosBearing
    return GroundPoint(x: groundX, y: groundY, depth: distance - groundY * sinTilt)
  }

  /// The coordinate under a screen point, or nil above the horizon of a tilted view (and for
  /// a point too far away for the projection to stay finite).
  public func coordinate(for point: Point) -> Coordinate? {
    worldPoint(for: point).map(Mercator.coordinate)
  }

  /// The world point under a screen point (x may leave 0..<1), or nil above the horizon.
  package func worldPoint(for point: Point) -> WorldPoint? {
    let a = point.x - center.x, b = point.y - center.y
    let denominator = distance * cosTilt + b * sinTilt
    guard denominator > distance * 1e-3 else { return nil }
    let groundY = b * distance / denominator
    let groundX = a * (distance - groundY * sinTilt) / distance
    let dx = groundX * cosBearing - groundY * sinBearing
    let dy = groundX * sinBearing + groundY * cosBearing
    let world = WorldPoint(x: targetWorld.x + dx / scale, y: targetWorld.y + dy / scale)
    return world.x.isFinite && world.y.isFinite ? world : nil
  }

  /// The screen y of the horizon (points above it see the sky), or -infinity when not tilted.
  package var horizonY: Double {
    sinTilt < 1e-9 ? -.infinity : center.y - distance * cosTilt / sinTilt
  }

  /// The corners of the padded view on the ground (R29). Far corners above the horizon
  /// are pulled down to just below it.
  public var visibleRegion: VisibleRegion {
    let rect = paddedRect
    let farY = max(rect.minY, horizonY + 0.05 * (center.y - horizonY))
    func at(_ x: Double, _ y: Double) -> Coordinate {
      coordinate(for: Point(x: x, y: y)) ?? camera.target
    }
    return VisibleRegion(
      nearLeft: at(rect.minX, rect.maxY), nearRight: at(rect.maxX, rect.maxY),
      farLeft: at(rect.minX, farY), farRight: at(rect.maxX, farY))
  }

  /// Whether the coordinate is visible: its point lies in the padded view, edges included (R29).
  public func contains(_ coordinate: Coordinate) -> Bool {
    guard let point = point(for: coordinate) else { return false }
    return paddedRect.contains(point)
  }

  /// How many points `meters` on the ground span at `coordinate` at this zoom (R29), on the
  /// ground plane (tilt foreshortening is not applied).
  public func points(forMeters meters: Double, at coordinate: Coordinate) -> Double {
    meters * scale / Mercator.metersPerWorldUnit(atLatitude: coordinate.latitude)
  }
}
