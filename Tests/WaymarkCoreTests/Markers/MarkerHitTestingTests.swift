import Testing
@testable import WaymarkCore
import WaymarkTesting

@Suite struct MarkerHitTestingTests {
  func map() throws -> MapView { try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12)) }

  @Test("R4: The icon rectangle is placed by the ground anchor") func theIconRectangleIsPlacedByTheGroundAnchor() throws
  {
    // R4: hit-testing against the icon's rectangle placed by ground_anchor.
    let map = try map()
    let marker = try map.addMarker(MarkerOptions(position: Places.sydney))
    let anchor = try #require(map.screenPoint(of: marker))
    #expect(map.topmostMarker(at: Point(x: anchor.x, y: anchor.y - 1)) === marker)
    #expect(map.topmostMarker(at: Point(x: anchor.x + 13, y: anchor.y - 42)) === marker)
    #expect(map.topmostMarker(at: Point(x: anchor.x, y: anchor.y + 2)) == nil, "below the anchor: outside")
    #expect(map.topmostMarker(at: Point(x: anchor.x + 14, y: anchor.y - 20)) == nil)
    try marker.update { $0.groundAnchor = Point(x: 0.5, y: 0.5) }
    #expect(map.topmostMarker(at: Point(x: anchor.x, y: anchor.y + 20)) === marker)
  }

  @Test("R4: Rotation turns the rectangle and flat markers follow the bearing")
  func rotationTurnsTheRectangleAndFlatMarkersFollowTheBearing() throws {
    // R4: rotated by rotation; a flat marker's rectangle also follows the map's bearing.
    let map = try map()
    var options = MarkerOptions(position: Places.sydney)
    options.icon = .image(name: "bar", size: Size(width: 100, height: 10))
    options.groundAnchor = Point(x: 0.5, y: 0.5)
    let marker = try map.addMarker(options)
    let anchor = try #require(map.screenPoint(of: marker))
    let east = Point(x: anchor.x + 40, y: anchor.y), south = Point(x: anchor.x, y: anchor.y + 40)
    #expect(map.topmostMarker(at: east) === marker && map.topmostMarker(at: south) == nil)
    try marker.update { $0.rotation = 90 }
    #expect(map.topmostMarker(at: east) == nil && map.topmostMarker(at: south) === marker)
    try map.moveCamera(.change(CameraChange(bearing: 90)))
    #expect(map.topmostMarker(at: south) === marker, "a billboard ignores the bearing")
    try marker.update { $0.flat = true }
    #expect(map.topmostMarker(at: east) === marker, "flat: rotation 90 minus bearing 90")
  }

  @Test("R4: Topmost is highest z index then most recent") func topmostIsHighestZIndexThenMostRecent() throws {
    // R4: highest z_index, then the most recently added.
    let map = try map()
    let first = try map.addMarker(MarkerOptions(position: Places.sydney, id: "first"))
    let second = try map.addMarker(MarkerOptions(position: Places.sydney, id: "second"))
    let point = map.iconCenterForTest(Places.sydney)
    #expect(map.topmostMarker(at: point) === second)
    try first.update { $0.zIndex = 1 }
    #expect(map.topmostMarker(at: point) === first)
    #expect(map.markers(at: point).map(\.id) == ["first", "second"])
    try first.update { $0.zIndex = 0 }
    try map.remove(second)
    try map.add(second)
    #expect(map.topmostMarker(at: point) === second, "re-added counts as most recent")
  }

  @Test("R4: Untappable markers let the tap fall through but invisible ones do not")
  func untappableMarkersLetTheTapFallThroughButInvisibleOnesDoNot() throws {
    // R4: opacity 0 does not make a marker untappable; tappable=false does.
    let fixture = try MapFixture(Places.sydney, zoom: 12)
    let below = try fixture.marker("below", at: Places.sydney)
    let above = try fixture.marker("above", at: Places.sydney)
    try above.update { $0.opacity = 0 }
    let point = fixture.map.iconCenterForTest(Places.sydney)
    #expect(fixture.map.topmostMarker(at: point) === above)
    try above.update { $0.tappable = false }
    #expect(fixture.map.topmostMarker(at: point) === below)
    try below.update { $0.tappable = false }
    try fixture.map.tap(at: point)
    #expect(fixture.delegate.events == ["did_tap_at_coordinate"])
  }

  @Test func theIndexStaysExactUnderRandomAddsMovesAndRemoves() throws {
    // Hit-testing through the spatial index agrees with a scan of every marker.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 11))
    var rng = SplitMix64(seed: 11)
    var live: [Marker] = []
    func random() -> Coordinate {
      Coordinate(
        latitude: Places.sydney.latitude + .random(in: -0.1...0.1, using: &rng),
        longitude: Places.sydney.longitude + .random(in: -0.1...0.1, using: &rng))
    }
    for step in 0..<3000 {
      switch rng.next() % 4 {
      case 0 where !live.isEmpty:
        let index = Int(rng.next() % UInt64(live.count))
        try map.remove(live.remove(at: index))
      case 1 where !live.isEmpty:
        let marker = live[Int(rng.next() % UInt64(live.count))]
        let to = random()
        try marker.update { $0.position = to }
      default:
        var options = MarkerOptions(position: random())
        options.zIndex = Int32(rng.next() % 3)
        options.draggable = true
        live.append(try map.addMarker(options))
      }
      if step % 50 == 0 {
        try map.drag(live[0], to: random(), duration: 0.1)
        try map.settle()
        for _ in 0..<20 {
          let point = Point(x: .random(in: 0...390, using: &rng), y: .random(in: 0...844, using: &rng))
          let scan = live.filter { marker in
            guard let anchor = map.screenPoint(of: marker) else { return false }
            return abs(point.x - anchor.x) <= 13.5 && point.y <= anchor.y && point.y >= anchor.y - 43
          }
          #expect(Set(map.markers(at: point).map(ObjectIdentifier.init)) == Set(scan.map(ObjectIdentifier.init)))
        }
      }
    }
  }
}
