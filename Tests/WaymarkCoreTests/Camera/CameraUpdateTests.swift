import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct CameraUpdateTests {
  func map(zoom: Double = 10, bearing: Double = 0, tilt: Double = 0) throws -> MapView {
    try MapView(camera: CameraPosition(target: Places.sydney, zoom: zoom, bearing: bearing, tilt: tilt))
  }

  @Test("R28: Zoom in out by and to") func zoomInOutByAndTo() throws {
    // R28: zoom_in (+1), zoom_out (-1), zoom_by(delta), zoom_to.
    let map = try map()
    try map.moveCamera(.zoomIn)
    #expect(map.camera.zoom == 11)
    try map.moveCamera(.zoomOut)
    try map.moveCamera(.zoomOut)
    #expect(map.camera.zoom == 9)
    try map.moveCamera(.zoomBy(2.5))
    #expect(map.camera.zoom == 11.5)
    try map.moveCamera(.zoomTo(4))
    #expect(map.camera.zoom == 4)
    #expect(map.camera.target == Places.sydney)
  }

  @Test(arguments: [(0.0, 0.0), (40, 0), (0, 25), (120, 30)])
  func zoomByAtAPointKeepsThatPointFixed(bearing: Double, tilt: Double) throws {
    // R28: zoom_by(delta, at point): the point stays fixed on screen.
    let map = try map(zoom: 12, bearing: bearing, tilt: tilt)
    let point = Point(x: 300, y: 650)
    let before = try #require(map.projection.coordinate(for: point))
    try map.moveCamera(.zoomBy(1.5, around: point))
    #expect(map.camera.zoom == 13.5)
    let after = try #require(map.projection.point(for: before))
    expectClose(after.x, point.x, tolerance: 1e-6)
    expectClose(after.y, point.y, tolerance: 1e-6)
  }

  @Test("R28: Scroll by moves the map under the finger") func scrollByMovesTheMapUnderTheFinger() throws {
    // R28: scroll_by(dx, dy) in points, x right, y down: the view's centre moves by that much.
    let map = try map(zoom: 12, bearing: 90)
    let destination = try #require(map.projection.coordinate(for: Point(x: 195 + 100, y: 422 - 50)))
    try map.moveCamera(.scrollBy(dx: 100, dy: -50))
    expectClose(map.camera.target, destination, tolerance: 1e-9)
  }

  @Test("R51: Scroll by shifts the centre by screen points under tilt too")
  func scrollByShiftsTheCentreByScreenPointsUnderTiltToo() throws {
    // GMSCameraUpdate scrollByX:Y: "shifts the center of the view by the specified number
    // of points": at tilt 25 the coordinate 150 points below the centre becomes the centre
    // (R51), not the one 150 points away on the flat ground.
    let map = try map(zoom: 14, bearing: 30, tilt: 25)
    let centre = Point(x: 195, y: 422)  // the middle of the unpadded 390 x 844 view
    let shifted = Point(x: centre.x + 40, y: centre.y + 150)
    let destination = try #require(map.projection.coordinate(for: shifted))
    try map.moveCamera(.scrollBy(dx: 40, dy: 150))
    expectClose(map.camera.target, destination, tolerance: 1e-9)
    #expect(map.camera.tilt == 25)
    let now = try #require(map.projection.point(for: destination))
    expectClose(now.x, centre.x, tolerance: 1e-6)
    expectClose(now.y, centre.y, tolerance: 1e-6)
  }

  @Test("R28: Fit shows the bounds with padding and resets bearing and tilt")
  func fitShowsTheBoundsWithPaddingAndResetsBearingAndTilt() throws {
    // R28: fit(bounds, padding): greatest zoom that fits; bearing and tilt reset to 0.
    let map = try map(zoom: 3, bearing: 45, tilt: 20)
    let a = Places.sydney, b = Coordinate(latitude: -33.8683, longitude: 149.2086)
    try map.moveCamera(.fit(try CoordinateBounds(a, b), insets: EdgeInsets(all: 50)))
    #expect(map.camera.bearing == 0 && map.camera.tilt == 0)
    let pa = try #require(map.projection.point(for: a)), pb = try #require(map.projection.point(for: b))
    expectClose(abs(pa.x - pb.x), 390 - 100, tolerance: 1e-6)
    expectClose((pa.x + pb.x) / 2, 195, tolerance: 1e-6)
    // One more zoom level would not fit.
    #expect(map.projection.pointsPerWorldUnit * 2 * abs(Mercator.worldPoint(a).x - Mercator.worldPoint(b).x) > 290)
  }

  @Test("R29, R28: Fit respects the map padding and defaults to 64 points")
  func fitRespectsTheMapPaddingAndDefaultsTo64Points() throws {
    // R29: fit respects padding. R28: default padding 64 points.
    let map = try map(zoom: 3)
    try map.setPadding(EdgeInsets(top: 0, left: 100, bottom: 0, right: 0))
    let bounds = try CoordinateBounds(Places.sydney, Coordinate(latitude: -33.8683, longitude: 149.2086))
    try map.moveCamera(.fit(bounds))
    let pa = try #require(map.projection.point(for: Places.sydney))
    let pb = try #require(map.projection.point(for: Coordinate(latitude: -33.8683, longitude: 149.2086)))
    expectClose(min(pa.x, pb.x), 100 + 64, tolerance: 1e-6)
    expectClose(max(pa.x, pb.x), 390 - 64, tolerance: 1e-6)
  }

  @Test func fitAcrossTheAntimeridian() throws {
    let map = try map(zoom: 3)
    let bounds = try CoordinateBounds(
      Coordinate(latitude: -10, longitude: 170), Coordinate(latitude: 10, longitude: -170))
    try map.moveCamera(.fit(bounds))
    #expect(abs(abs(map.camera.target.longitude) - 180) < 1e-6)
  }

  @Test func fitOfEmptyBoundsIsAnError() throws {
    let map = try map()
    #expect(
      throws: MapError.invalidValue(field: "cameraUpdate.fit.bounds", value: "empty", reason: "is not valid bounds")
    ) {
      try map.moveCamera(.fit(.empty))
    }
  }

  @Test func setTargetKeepsOrChangesZoom() throws {
    let map = try map()
    try map.moveCamera(.setTarget(Places.melbourne))
    #expect(map.camera.target == Places.melbourne && map.camera.zoom == 10)
    try map.moveCamera(.setTarget(Places.brisbane, zoom: 7))
    #expect(map.camera.target == Places.brisbane && map.camera.zoom == 7)
  }
}
