import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct CoordinateTests {
  @Test(arguments: [
    (Coordinate(latitude: .nan, longitude: 0), "position.latitude: nan is not a finite number"),
    (Coordinate(latitude: 0, longitude: .infinity), "position.longitude: inf is not a finite number"),
    (Coordinate(latitude: 90.5, longitude: 0), "position.latitude: 90.5 is outside -90...90"),
    (Coordinate(latitude: -91, longitude: 0), "position.latitude: -91 is outside -90...90"),
  ])
  func badCoordinatesNameFieldAndValue(coordinate: Coordinate, message: String) {
    #expect(throws: MapError.self) { try coordinate.validated("position") }
    do {
      _ = try coordinate.validated("position")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test(arguments: [(180.0, -180.0), (-180, -180), (190, -170), (-190, 170), (540, -180), (359.5, -0.5), (0, 0)])
  func longitudesWrapIntoTheHalfOpenRange(input: Double, wrapped: Double) {
    // R20: longitude wraps into [-180, 180).
    #expect(Coordinate.wrapLongitude(input) == wrapped)
  }

  @Test func mercatorRoundTrips() {
    var rng = SplitMix64(seed: 3)
    for _ in 0..<1000 {
      let c = Coordinate(latitude: .random(in: -85...85, using: &rng), longitude: .random(in: -180..<180, using: &rng))
      expectClose(Mercator.coordinate(Mercator.worldPoint(c)), c, tolerance: 1e-9)
    }
  }

  @Test func distanceAndHeadingBetweenCities() {
    // Sydney to Melbourne: about 714 km, heading south-west.
    expectClose(Places.sydney.distance(to: Places.melbourne) / 1000, 714, tolerance: 5)
    let heading = Places.sydney.heading(to: Places.melbourne)
    #expect(heading > 230 && heading < 250)
  }

  @Test func numbersPrintShortAndStable() {
    #expect(formatNumber(8) == "8")
    #expect(formatNumber(-37.81969) == "-37.81969")
    #expect(formatNumber(.nan) == "nan")
    #expect(formatNumber(0.1 + 0.2, decimals: 6) == "0.3")
    #expect(formatNumber(-0.0000001, decimals: 6) == "0")
  }
}
