import Foundation
import Testing
import WaymarkCore

@testable import WaymarkRender

@Suite struct BaseMapTests {
  /// Even-odd: whether `point` is inside the subpaths of SVG path data "M x y L x y ... Z".
  static func contains(_ d: String, _ point: Point) -> Bool {
    var inside = false
    for subpath in d.split(separator: "M") {
      let numbers = subpath.split(whereSeparator: { $0 == "L" || $0 == " " || $0 == "Z" }).compactMap { Double($0) }
      let ring = stride(from: 0, to: numbers.count - 1, by: 2).map { Point(x: numbers[$0], y: numbers[$0 + 1]) }
      guard ring.count >= 3 else { continue }
      var previous = ring[ring.count - 1]
      for current in ring {
        if (current.y > point.y) != (previous.y > point.y),
          point.x < previous.x + (point.y - previous.y) * (current.x - previous.x) / (current.y - previous.y)
        {
          inside.toggle()
        }
        previous = current
      }
    }
    return inside
  }

  func landPath(_ camera: CameraPosition) throws -> String {
    let map = try MapView(camera: camera)
    return try #require(try picture(of: map).all("path", class: "land").first?["d"])
  }

  @Test func naturalEarthsLandDecodesIntoItsRings() {
    let rings = NaturalEarthLand.rings
    #expect(rings.count == 287)
    #expect(rings.allSatisfy { $0.closed && $0.points.count >= 3 })
    let australia = rings.max { ($0.maxX - $0.minX) * ($0.maxY - $0.minY) < ($1.maxX - $1.minX) * ($1.maxY - $1.minY) }
    #expect(australia != nil)
    // Australia's mainland spans roughly 113-154 E and 10-39 S.
    let mainland = rings.first { ring in
      let west = Mercator.worldPoint(Coordinate(latitude: 0, longitude: 112)).x
      let east = Mercator.worldPoint(Coordinate(latitude: 0, longitude: 155)).x
      return ring.minX > west && ring.maxX < east && ring.points.count > 40
    }
    #expect(mainland != nil)
  }

  @Test func placesOnLandAreDrawnAsLandAndTheSeaAsSea() throws {
    let centre = Point(x: 195, y: 422)
    #expect(
      Self.contains(
        try landPath(CameraPosition(target: Coordinate(latitude: -23.7, longitude: 133.88), zoom: 5)), centre))
    #expect(
      Self.contains(try landPath(CameraPosition(target: Coordinate(latitude: 48.86, longitude: 2.35), zoom: 6)), centre)
    )
    #expect(
      !Self.contains(try landPath(CameraPosition(target: Coordinate(latitude: -38, longitude: 160), zoom: 5)), centre))
    #expect(
      !Self.contains(try landPath(CameraPosition(target: Coordinate(latitude: 0, longitude: -30), zoom: 3)), centre))
  }

  @Test func pathsStayNearTheViewAtAnyZoom() throws {
    // Zoomed far in, land is millions of points across: it is clipped to the view and a margin.
    for camera in [
      CameraPosition(target: Places.sydney, zoom: 20), CameraPosition(target: Places.sydney, zoom: 18, tilt: 65),
      CameraPosition(target: Places.sydney, zoom: 1, bearing: 80, tilt: 30),
    ] {
      let d =
        try landPath(camera) + " "
        + (try picture(of: MapView(camera: camera)).all("path", class: "graticule")
          .first?["d"] ?? "")
      let numbers = d.split(whereSeparator: { "MLZ ".contains($0) }).compactMap { Double($0) }
      #expect(!numbers.isEmpty)
      #expect(numbers.allSatisfy { $0 >= -8 && $0 <= 852 }, "\(camera)")
    }
  }

  @Test func theFarSideOfATiltedMapIsForeshortened() throws {
    // Parallels are straight lines; seen tilted, equal steps of latitude come closer together
    // towards the top of the view.
    let map = try MapView(camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 9, tilt: 30))
    let d = try #require(try picture(of: map).all("path", class: "graticule").first?["d"])
    let parallels = d.split(separator: "M").compactMap { line -> Double? in
      let numbers = line.split(whereSeparator: { $0 == "L" || $0 == " " }).compactMap { Double($0) }
      guard numbers.count == 4, abs(numbers[1] - numbers[3]) < 0.01 else { return nil }
      return numbers[1]
    }.sorted()
    #expect(parallels.count >= 4)
    let gaps = zip(parallels, parallels.dropFirst()).map { $1 - $0 }
    #expect(zip(gaps, gaps.dropFirst()).allSatisfy { $0 < $1 }, "\(gaps)")
  }

  @Test func shapesAcrossTheAntimeridianAreDrawnOnTheCopyTheCameraSees() throws {
    let projection = Projection(
      camera: CameraPosition(target: Coordinate(latitude: 65, longitude: 179.5), zoom: 4),
      viewSize: Size(width: 390, height: 844))
    let projector = ShapeProjector(projection: projection, margin: 8)
    // Chukotka lies west of -170: its ring is drawn one world to the east.
    let chukotka = try #require(
      NaturalEarthLand.rings.first {
        $0.maxX < Mercator.worldPoint(Coordinate(latitude: 0, longitude: -160)).x && $0.minY < 0.3
      })
    #expect(projector.copies(of: chukotka) == [1])
    var path = SVGBuffer()
    #expect(projector.appendPath(chukotka, offset: 1, to: &path))
  }

  @Test func graticuleStepsKeepLinesAbout100PointsApart() {
    #expect(Graticule.step(zoom: 0) == 30)
    #expect(Graticule.step(zoom: 4) == 10)
    #expect(Graticule.step(zoom: 8) == 1)
    #expect(abs(Graticule.step(zoom: 11) - 0.1) < 1e-12)
    #expect(Graticule.label(-37.8, "N", "S") == "37.8°S" && Graticule.label(180, "E", "W") == "180°")
  }

  @Test func clippingKeepsWhatIsInFrontAndInside() {
    let rect = Rect(x: 0, y: 0, width: 10, height: 10)
    let clipped = ShapeProjector.clipRing(
      [Point(x: -5, y: 5), Point(x: 5, y: -5), Point(x: 15, y: 5), Point(x: 5, y: 15)], to: rect)
    #expect(clipped.allSatisfy { $0.x >= 0 && $0.x <= 10 && $0.y >= 0 && $0.y <= 10 })
    #expect(clipped.count == 8)
    #expect(ShapeProjector.clipSegment(Point(x: -5, y: 5), Point(x: 5, y: 5), to: rect)?.0 == Point(x: 0, y: 5))
    #expect(ShapeProjector.clipSegment(Point(x: -5, y: -5), Point(x: -1, y: 20), to: rect) == nil)
    let ground = ShapeProjector.clipRing(
      [GroundPoint(x: 0, y: 0, depth: 10), GroundPoint(x: 0, y: 10, depth: -10), GroundPoint(x: 10, y: 0, depth: 10)],
      nearDepth: 1)
    #expect(ground.count == 4 && ground.allSatisfy { $0.depth >= 1 })
  }

  @Test func majorCitiesAreLabelledWithoutOverlapping() throws {
    #expect(NaturalEarthCities.cities.count == 243 && NaturalEarthCities.cities.first?.name == "Hong Kong")
    let svg = try picture(of: MapView(camera: CameraPosition(target: Places.sydney, zoom: 5)))
    let names = svg.all("g", class: "city").flatMap(\.texts)
    #expect(names.contains("Sydney") && names.contains("Canberra") && names.contains("Melbourne"))
    // Over Europe at zoom 3 many cities compete: the important ones win and none overlap.
    let projection = Projection(
      camera: CameraPosition(target: Coordinate(latitude: 50, longitude: 10), zoom: 3),
      viewSize: Size(width: 390, height: 844))
    let labels = NaturalEarthCities.labels(in: projection)
    #expect(labels.contains { $0.city.name == "London" } && labels.contains { $0.city.name == "Paris" })
    #expect(!labels.contains { $0.city.name == "Vatican City" }, "Rome's label leaves it no room")
    let boxes = labels.map { NaturalEarthCities.labelBox($0.city, at: $0.point) }
    for (i, a) in boxes.enumerated() {
      for b in boxes[(i + 1)...] {
        #expect(!(a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY))
      }
    }
  }
}
