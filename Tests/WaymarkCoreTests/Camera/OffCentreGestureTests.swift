import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

/// R67: `GMSUISettings.allowScrollGesturesDuringRotateOrZoom`: "Controls whether rotate and
/// zoom gestures can be performed off-center and scrolled around." On by default.
@Suite struct OffCentreGestureTests {
  private static let corner = Point(x: 80, y: 200)

  @Test("R67: on (the default), a pinch keeps the ground under the fingers where it is")
  func aPinchTurnsAboutTheFingers() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    #expect(map.settings.allowScrollGesturesDuringRotateOrZoom)
    let under = try #require(map.projection.coordinate(for: Self.corner))
    try map.pinch(zoomBy: 1.5, around: Self.corner)
    try map.settle()
    expectClose(try #require(map.projection.point(for: under)), Self.corner, tolerance: 1e-6)
  }

  @Test("R67: on, a rotation about a point keeps the ground under the fingers where it is")
  func aRotationTurnsAboutTheFingers() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let under = try #require(map.projection.coordinate(for: Self.corner))
    try map.rotate(by: 40, around: Self.corner)
    try map.settle()
    expectClose(map.camera.bearing, 320)
    expectClose(try #require(map.projection.point(for: under)), Self.corner, tolerance: 1e-6)
  }

  @Test("R67: on, fingers that move while they pinch or rotate drag the content along")
  func movingFingersScroll() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let centre = try #require(map.projection.point(for: map.camera.target))
    try map.rotate(by: 30, duration: 0.5, scrolling: Point(x: 50, y: -20))
    try map.settle()
    // The old centre's ground turned about the centre, then followed the fingers.
    let moved = try #require(map.projection.point(for: Places.sydney))
    expectClose(moved, Point(x: centre.x + 50, y: centre.y - 20), tolerance: 1e-6)
  }

  @Test("R67: off, zooms and rotations turn about the centre and moving fingers move nothing")
  func offTheyTurnAboutTheCentre() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    map.settings.allowScrollGesturesDuringRotateOrZoom = false
    try map.pinch(zoomBy: 1.5, around: Self.corner, scrolling: Point(x: 50, y: 0))
    try map.settle()
    try map.rotate(by: 40, around: Self.corner, scrolling: Point(x: 0, y: 30))
    try map.settle()
    try map.doubleTap(at: Self.corner)
    try map.settle()
    expectClose(map.camera.target, Places.sydney, tolerance: 1e-9)
    expectClose(map.camera.zoom, 12.5)
    expectClose(map.camera.bearing, 320)
  }

  @Test("R67: only pinches and rotations scroll")
  func onlyPinchesAndRotationsScroll() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    #expect(throws: MapError.self) { try map.perform(.pan(dx: 10, dy: 0), scrolling: Point(x: 1, y: 0)) }
    #expect(throws: MapError.self) { try map.rotate(by: 10, around: Point(x: .nan, y: 0)) }
    try map.settle()
    #expect(map.camera == CameraPosition(target: Places.sydney, zoom: 10), "a refused gesture moves nothing")
  }
}

private func expectClose(
  _ a: Point, _ b: Point, tolerance: Double, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance, "\(a) is not \(b)", sourceLocation: sourceLocation)
}
