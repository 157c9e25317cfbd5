import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct ProjectionTests {
  let size = Size(width: 390, height: 844)

  @Test("R29: The target is at the centre of the padded view") func theTargetIsAtTheCentreOfThePaddedView() throws {
    // R29: padding moves the visual centre.
    let camera = CameraPosition(target: Places.sydney, zoom: 10, bearing: 30, tilt: 20)
    let plain = Projection(camera: camera, viewSize: size)
    let centre = try #require(plain.point(for: Places.sydney))
    expectClose(centre.x, 195)
    expectClose(centre.y, 422)
    let padded = Projection(
      camera: camera, viewSize: size, padding: EdgeInsets(top: 100, left: 0, bottom: 0, right: 50))
    let moved = try #require(padded.point(for: Places.sydney))
    expectClose(moved.x, 170)
    expectClose(moved.y, 472)
  }

  @Test("R20: Zoom zero draws the world 256 points wide") func zoomZeroDrawsTheWorld256PointsWide() throws {
    // R20: zoom z draws the world 256 x 2^z points wide.
    for zoom in [0.0, 3, 10.5] {
      let projection = Projection(
        camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: zoom), viewSize: size)
      let east = try #require(projection.point(for: Coordinate(latitude: 0, longitude: 90)))
      expectClose(east.x - 195, 256 * exp2(zoom) / 4, tolerance: 1e-6 * exp2(zoom))
    }
  }

  @Test(arguments: [0.0, 45, 90, 200, 359])
  func pointsAndCoordinatesRoundTripAtManyCameras(bearing: Double) throws {
    // R29 property: coordinate_for(point_for(c)) == c across bearings, tilts, zooms and padding.
    var rng = SplitMix64(seed: UInt64(bearing * 10) + 1)
    for _ in 0..<200 {
      let zoom = Double.random(in: 2...20, using: &rng)
      let tilt = Double.random(in: 0...CameraPosition.maximumTilt(atZoom: zoom), using: &rng)
      let target = Coordinate(
        latitude: .random(in: -80...80, using: &rng), longitude: .random(in: -180..<180, using: &rng))
      let padding = EdgeInsets(
        top: .random(in: 0...100, using: &rng), left: .random(in: 0...60, using: &rng), bottom: 0, right: 10)
      let projection = Projection(
        camera: CameraPosition(target: target, zoom: zoom, bearing: bearing, tilt: tilt), viewSize: size,
        padding: padding)
      let screen = Point(x: .random(in: 0...390, using: &rng), y: .random(in: 0...844, using: &rng))
      // Points off the square world (beyond 85 degrees) or more than half a world away
      // have no round trip: their coordinate is clamped or wraps to a nearer copy.
      guard let world = projection.worldPoint(for: screen), (0...1).contains(world.y),
        abs(world.x - Mercator.worldPoint(target).x) < 0.5,
        let coordinate = projection.coordinate(for: screen)
      else { continue }
      let back = try #require(projection.point(for: coordinate))
      expectClose(back.x, screen.x, tolerance: 1e-5)
      expectClose(back.y, screen.y, tolerance: 1e-5)
    }
  }

  @Test("R29: A tilted view sees a trapezoid wider far away") func aTiltedViewSeesATrapezoidWiderFarAway() throws {
    // R29: the visible region is a trapezoid when tilted.
    let flat = Projection(camera: CameraPosition(target: Places.melbourne, zoom: 12), viewSize: size).visibleRegion
    func width(_ a: Coordinate, _ b: Coordinate) -> Double { Mercator.worldPoint(b).x - Mercator.worldPoint(a).x }
    expectClose(width(flat.farLeft, flat.farRight) / width(flat.nearLeft, flat.nearRight), 1, tolerance: 1e-9)
    let tilted = Projection(camera: CameraPosition(target: Places.melbourne, zoom: 12, tilt: 40), viewSize: size)
      .visibleRegion
    let far = width(tilted.farLeft, tilted.farRight), near = width(tilted.nearLeft, tilted.nearRight)
    #expect(far > near * 1.3)
    #expect(tilted.farLeft.latitude > flat.farLeft.latitude)
  }

  @Test("R29: Contains means inside the padded view") func containsMeansInsideThePaddedView() {
    // R29: contains(coordinate); padding shrinks the visible region.
    let camera = CameraPosition(target: Places.melbourne, zoom: 10)
    let projection = Projection(camera: camera, viewSize: size)
    #expect(projection.contains(Places.melbourne))
    #expect(!projection.contains(Places.sydney))
    let north = Coordinate(latitude: Places.melbourne.latitude + 0.25, longitude: Places.melbourne.longitude)
    #expect(projection.contains(north))
    let padded = Projection(camera: camera, viewSize: size, padding: EdgeInsets(top: 400))
    #expect(!padded.contains(north))
  }

  @Test("R29: Points for meters follows the mercator scale") func pointsForMetersFollowsTheMercatorScale() {
    // R29: points_for_meters: at the equator, zoom 0, the world's 40,075 km are 256 points.
    let projection = Projection(
      camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 0), viewSize: size)
    expectClose(
      projection.points(forMeters: 2 * .pi * Mercator.earthRadius, at: Coordinate(latitude: 0, longitude: 0)), 256)
    // At 60 degrees, a meter covers twice as many points.
    expectClose(
      projection.points(forMeters: 1000, at: Coordinate(latitude: 60, longitude: 0))
        / projection.points(forMeters: 1000, at: Coordinate(latitude: 0, longitude: 0)), 2, tolerance: 1e-9)
  }

  @Test func theWorldRepeatsEastWest() throws {
    let projection = Projection(
      camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 179.9), zoom: 10), viewSize: size)
    let across = try #require(projection.point(for: Coordinate(latitude: 0, longitude: -179.9)))
    expectClose(across.x - 195, 0.2 / 360 * 256 * 1024, tolerance: 1e-6)
  }

  @Test func pointsAboveTheHorizonHaveNoCoordinate() {
    let projection = Projection(
      camera: CameraPosition(target: Places.melbourne, zoom: 18, tilt: 65), viewSize: size,
      padding: EdgeInsets(top: 800))
    #expect(projection.horizonY > 0)
    #expect(projection.coordinate(for: Point(x: 195, y: projection.horizonY - 1)) == nil)
    #expect(projection.coordinate(for: Point(x: 195, y: projection.horizonY + 50)) != nil)
  }

  @Test func groundPointsProjectAsWorldPointsDoAndKeepTheirCopyOfTheWorld() throws {
    let projection = Projection(
      camera: CameraPosition(target: Places.sydney, zoom: 1, bearing: 30, tilt: 20), viewSize: size)
    let target = Mercator.worldPoint(Places.sydney)
    for (dx, dy) in [(0.0, 0.0), (0.1, -0.2), (-0.3, 0.05), (0.45, 0.3)] {
      let world = WorldPoint(x: target.x + dx, y: target.y + dy)
      let viaGround = projection.point(forGround: projection.groundPoint(forUnwrappedWorld: world))
      #expect(viaGround == projection.point(forWorld: world), "the same arithmetic, bit for bit")
    }
    // One world to the east is another copy: the unwrapped point is a world width away on the
    // ground, where point(forWorld:) returns the nearest copy.
    let here = projection.groundPoint(forUnwrappedWorld: target)
    let east = projection.groundPoint(forUnwrappedWorld: WorldPoint(x: target.x + 1, y: target.y))
    let width = projection.pointsPerWorldUnit
    expectClose(((east.x - here.x) * (east.x - here.x) + (east.y - here.y) * (east.y - here.y)).squareRoot(), width)
    expectClose(here.depth, projection.cameraDistance)
    #expect(projection.point(forGround: GroundPoint(x: 0, y: 0, depth: 0)) == nil, "behind the camera")
  }
}
