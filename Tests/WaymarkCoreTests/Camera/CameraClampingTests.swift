import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct CameraClampingTests {
  @Test("R20: Latitude clamps longitude and bearing wrap") func latitudeClampsLongitudeAndBearingWrap() throws {
    // R20: latitude clamped to [-85, 85]; longitude wraps into [-180, 180); bearing into [0, 360).
    let map = try MapView(
      camera: CameraPosition(target: Coordinate(latitude: 89, longitude: 200), zoom: 4, bearing: -30))
    #expect(map.camera.target.latitude == 85)
    #expect(map.camera.target.longitude == -160)
    #expect(map.camera.bearing == 330)
    try map.setCamera(CameraPosition(target: Coordinate(latitude: -90, longitude: -180), zoom: 4, bearing: 720))
    #expect(map.camera.target.latitude == -85)
    #expect(map.camera.target.longitude == -180)
    #expect(map.camera.bearing == 0)
  }

  @Test("R21: Zoom clamps to the default range") func zoomClampsToTheDefaultRange() throws {
    // R21: defaults min 2, max 21; clamped, not rejected.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 30))
    #expect(map.camera.zoom == 21)
    try map.moveCamera(.zoomTo(-3))
    #expect(map.camera.zoom == 2)
  }

  @Test("R21: Min greater than max is an error and changes nothing") func minGreaterThanMaxIsAnErrorAndChangesNothing()
    throws
  {
    // R21: set_min_max_zoom(min, max) with min > max is an error.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 6))
    #expect(
      throws: MapError.invalidRelation(
        field: "minZoom", value: "12", relation: "is greater than", other: "maxZoom", otherValue: "8")
    ) {
      try map.setMinMaxZoom(min: 12, max: 8)
    }
    #expect(map.minZoom == 2 && map.maxZoom == 21)
  }

  @Test("R21, R24: Narrowing the range clamps at once with the usual callbacks")
  func narrowingTheRangeClampsAtOnceWithTheUsualCallbacks() throws {
    // R21 + R24: narrowing clamps the current zoom at once: will_move(false), did_change, idle at the next frame.
    let fixture = try MapFixture(Places.sydney, zoom: 6)
    try fixture.quiet()
    try fixture.map.setMinMaxZoom(min: 10, max: 11.5)
    #expect(fixture.map.camera.zoom == 10)
    #expect(fixture.delegate.calls.prefix(2) == ["will_move(false)", "did_change_camera_position"])
    try fixture.map.advance(by: 1.0 / 60)
    #expect(fixture.delegate.events == ["will_move(false)", "idle_at_camera_position"])
    fixture.delegate.calls.removeAll()
    try fixture.map.setMinMaxZoom(min: 2, max: 21)
    #expect(fixture.delegate.calls.isEmpty, "widening the range does not move the camera")
  }

  @Test(arguments: [(5.0, 30.0), (10, 30), (13, 47.5), (16, 65), (20, 65)])
  func maximumTiltDependsOnZoom(zoom: Double, maximum: Double) throws {
    // R22: 30 degrees at zoom 10 and below, 65 at 16 and above, linear in between.
    expectClose(CameraPosition.maximumTilt(atZoom: zoom), maximum)
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: zoom, tilt: 80))
    expectClose(map.camera.tilt, maximum)
  }

  @Test func nonFiniteCameraValuesAreRejectedNotClamped() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 6))
    #expect(throws: MapError.invalidValue(field: "camera.zoom", value: "nan", reason: "is not a finite number")) {
      try map.setCamera(CameraPosition(target: Places.sydney, zoom: .nan))
    }
    #expect(throws: MapError.invalidValue(field: "camera.target.latitude", value: "95", reason: "is outside -90...90"))
    {
      try map.setCamera(CameraPosition(target: Coordinate(latitude: 95, longitude: 0), zoom: 3))
    }
    #expect(map.camera.zoom == 6, "nothing is half-applied")
  }

  @Test("R20: A bearing or longitude already in range wraps to itself, and the others by the remainder")
  func wrappingInRangeIsTheValueAndOutsideTheRemainder() {
    // Bit for bit what the remainder gives: the short path for values in range must not
    // change a single result (-0, the edges, huge values, infinities and NaN included).
    func bearingByRemainder(_ bearing: Double) -> Double {
      let wrapped = bearing.truncatingRemainder(dividingBy: 360)
      let positive = wrapped < 0 ? wrapped + 360 : wrapped
      return positive >= 360 ? 0 : positive
    }
    func longitudeByRemainder(_ longitude: Double) -> Double {
      if (-180.0..<180.0).contains(longitude) { return longitude }
      let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
      return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }
    var rng = SplitMix64(seed: 0x5752_4150)
    var values: [Double] = [
      0, -0.0, 360, -360, 359.999_999_999_999_94, 360.000_000_000_000_06, 180, -180, 540, -540, 720, 1e300,
      -1e300, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
    ]
    values += (0..<2_000).map { _ in rng.uniform(-1_000, 1_000) }
    for value in values {
      let bearing = CameraPosition.wrapBearing(value), expectedBearing = bearingByRemainder(value)
      #expect(bearing.bitPattern == expectedBearing.bitPattern || (bearing.isNaN && expectedBearing.isNaN), "\(value)")
      let longitude = Coordinate.wrapLongitude(value), expectedLongitude = longitudeByRemainder(value)
      #expect(
        longitude.bitPattern == expectedLongitude.bitPattern || (longitude.isNaN && expectedLongitude.isNaN),
        "\(value)")
    }
  }
}
