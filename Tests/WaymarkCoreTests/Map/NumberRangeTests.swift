import Testing

@testable import WaymarkCore
import WaymarkTesting

/// Numbers from outside are checked for their range, not only for being finite: a size,
/// an inset or a screen point that would make the projection overflow is refused with a
/// message naming it, and no NaN ever reaches a delegate.
@Suite struct NumberRangeTests {
  static let center = CameraPosition(target: Places.melbourne, zoom: 4)

  @Test func aViewLargerThanAHundredThousandPointsIsRefused() throws {
    #expect(throws: MapError.invalidValue(field: "size.width", value: "1e+308", reason: "is more than 100000")) {
      _ = try MapView(camera: Self.center, viewSize: Size(width: 1e308, height: 1534))
    }
    let map = try MapView(camera: Self.center)
    #expect(throws: MapError.self) { try map.setViewSize(Size(width: 300, height: 2e5)) }
    #expect(map.viewSize == Size(width: 390, height: 844))
  }

  @Test func paddingLargerThanAHundredThousandPointsIsRefused() throws {
    let map = try MapView(camera: Self.center)
    #expect(throws: MapError.invalidValue(field: "padding.top", value: "1e+308", reason: "is more than 100000")) {
      try map.setPadding(EdgeInsets(top: 1e308))
    }
    #expect(map.padding == .zero)
  }

  @Test func theLargestViewAndPaddingStillGiveTilesAndFiniteCameras() throws {
    let map = try MapView(camera: Self.center, viewSize: Size(width: 1e5, height: 1e5))
    try map.setPadding(EdgeInsets(top: 1e5, left: 1e5, bottom: 1e5, right: 1e5))
    try map.settle()
    try map.moveCamera(.scrollBy(dx: 1e6, dy: -1e6))
    try map.settle()
    #expect(map.camera.target.latitude.isFinite && map.camera.target.longitude.isFinite)
    #expect(map.trace.records.contains { $0.event == .callback(.didFinishTileRendering) })
  }

  @Test func aTapFarOffTheScreenIsRefusedAndNoNaNReachesTheDelegate() throws {
    let f = try MapFixture()
    try f.quiet()
    var seen: [Coordinate] = []
    f.delegate.tapAt = { _, coordinate in seen.append(coordinate) }
    #expect(throws: MapError.invalidValue(field: "tap.x", value: "1e+308", reason: "is outside -1000000...1000000")) {
      try f.map.tap(at: Point(x: 1e308, y: 100))
    }
    #expect(throws: MapError.self) { try f.map.longPress(at: Point(x: 0, y: .nan)) }
    #expect(throws: MapError.self) { try f.map.doubleTap(at: Point(x: -.infinity, y: 0)) }
    try f.map.tap(at: Point(x: 1e6, y: -1e6))  // far, but accepted: the coordinate is finite
    #expect(seen.allSatisfy { $0.latitude.isFinite && $0.longitude.isFinite })
    #expect(seen.count == 1)
  }

  @Test func gesturesAndScrollsFarBeyondAnyScreenAreRefused() throws {
    let f = try MapFixture()
    try f.quiet()
    #expect(throws: MapError.self) { try f.map.pan(dx: 1e308, dy: 0) }
    #expect(throws: MapError.self) { try f.map.rotate(by: 1e7) }
    #expect(throws: MapError.self) { try f.map.tilt(by: -1e7) }
    #expect(throws: MapError.self) { try f.map.pinch(zoomBy: 1, around: Point(x: 1e9, y: 0)) }
    #expect(throws: MapError.self) { try f.map.moveCamera(.scrollBy(dx: 0, dy: 1e300)) }
    #expect(f.delegate.calls.isEmpty)
  }

  @Test func theProjectionAnswersNilRatherThanNaN() throws {
    let projection = Projection(camera: Self.center, viewSize: Size(width: 390, height: 844))
    #expect(projection.coordinate(for: Point(x: .nan, y: 0)) == nil)
    #expect(projection.coordinate(for: Point(x: 1e308, y: 1e308)) == nil)
    #expect(projection.coordinate(for: Point(x: 1e6, y: 1e6)) != nil)
  }

  @Test("R1: An anchor outside the icon is refused, so no icon reaches off any screen")
  func anAnchorOutsideTheIconIsRefused() throws {
    let f = try MapFixture()
    var options = MarkerOptions(position: Places.melbourne, id: "far")
    options.groundAnchor = Point(x: 1e300, y: 0)
    #expect(throws: MapError.invalidValue(field: "marker.groundAnchor.x", value: "1e+300", reason: "is outside 0...1"))
    {
      try f.map.addMarker(options)
    }
    #expect(f.map.markers.isEmpty)
  }
}
