import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct CoordinateBoundsTests {
  @Test("R30: Empty bounds is invalid and contains nothing") func emptyBoundsIsInvalidAndContainsNothing() {
    // R30: an empty bounds is invalid.
    #expect(!CoordinateBounds.empty.isValid)
    #expect(!CoordinateBounds.empty.contains(Places.sydney))
  }

  @Test("R30: Including into empty bounds gives that point") func includingIntoEmptyBoundsGivesThatPoint() throws {
    // R30: including a coordinate into invalid bounds gives bounds of that point.
    let bounds = try CoordinateBounds.empty.including(Places.sydney)
    #expect(bounds.isValid)
    #expect(bounds.northEast == Places.sydney)
    #expect(bounds.southWest == Places.sydney)
    #expect(bounds.contains(Places.sydney))
  }

  @Test("R30: Two coordinates take the shorter way across the antimeridian")
  func twoCoordinatesTakeTheShorterWayAcrossTheAntimeridian() throws {
    // R30: 170 E and 170 W are 20 degrees apart across the antimeridian, not 340.
    let bounds = try CoordinateBounds(
      Coordinate(latitude: 10, longitude: 170), Coordinate(latitude: -10, longitude: -170))
    #expect(bounds.crossesAntimeridian)
    #expect(bounds.longitudeSpan == 20)
    #expect(bounds.contains(Coordinate(latitude: 0, longitude: 180)))
    #expect(bounds.contains(Coordinate(latitude: 0, longitude: -175)))
    #expect(!bounds.contains(Coordinate(latitude: 0, longitude: 0)))
  }

  @Test("R30: Contains includes the edges") func containsIncludesTheEdges() throws {
    // R30: contains includes the edges.
    let bounds = try CoordinateBounds(
      northEast: Coordinate(latitude: 10, longitude: 20), southWest: Coordinate(latitude: 0, longitude: 0))
    for edge in [(0.0, 0.0), (10, 20), (0, 20), (10, 0), (5, 0), (10, 10)] {
      #expect(bounds.contains(Coordinate(latitude: edge.0, longitude: edge.1)), "edge \(edge)")
    }
    #expect(!bounds.contains(Coordinate(latitude: 10.000001, longitude: 10)))
    #expect(!bounds.contains(Coordinate(latitude: 5, longitude: 20.000001)))
  }

  @Test func includingExtendsTheShorterWay() throws {
    let bounds = try CoordinateBounds(Coordinate(latitude: 0, longitude: 170), Coordinate(latitude: 1, longitude: 175))
    let grown = try bounds.including(Coordinate(latitude: 0, longitude: -178))
    #expect(grown.crossesAntimeridian)
    #expect(grown.longitudeSpan == 12)
    let west = try bounds.including(Coordinate(latitude: 0, longitude: 100))
    #expect(!west.crossesAntimeridian)
    #expect(west.southWest?.longitude == 100)
  }

  @Test func boundsFromRandomPairsAlwaysContainBothAndSpanAtMostHalfTheWorld() throws {
    var rng = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      let a = Coordinate(latitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180..<180, using: &rng))
      let b = Coordinate(latitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180..<180, using: &rng))
      let bounds = try CoordinateBounds(a, b)
      #expect(bounds.contains(a) && bounds.contains(b))
      #expect(bounds.longitudeSpan <= 180)
    }
  }

  @Test func invalidCornersAreRejectedWithTheirField() {
    #expect(
      throws: MapError.invalidValue(field: "bounds.coordinate.latitude", value: "91", reason: "is outside -90...90")
    ) {
      try CoordinateBounds(Coordinate(latitude: 91, longitude: 0), Places.sydney)
    }
    #expect(
      throws: MapError.invalidValue(
        field: "bounds.coordinate.longitude", value: "nan", reason: "is not a finite number")
    ) {
      try CoordinateBounds.empty.including(Coordinate(latitude: 0, longitude: .nan))
    }
  }
}
