import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

/// R25: the content follows the fingers. Each test projects a marker's screen point before
/// and after the gesture.
@Suite struct GestureDirectionTests {
  private func screenPoint(of marker: Marker, on map: MapView) throws -> Point {
    try #require(map.projection.point(for: marker.position))
  }

  @Test("R25: A pan moves the content with the finger and the camera the other way")
  func aPanMovesTheContentWithTheFinger() throws {
    for (dx, dy) in [(100.0, 0.0), (-100.0, 0.0), (0.0, 60.0), (0.0, -60.0)] {
      let fixture = try MapFixture(Places.sydney, zoom: 10)
      let marker = try fixture.marker("m", at: Places.sydney)
      let before = try screenPoint(of: marker, on: fixture.map)
      try fixture.map.pan(dx: dx, dy: dy)
      try fixture.map.settle()
      let after = try screenPoint(of: marker, on: fixture.map)
      expectClose(after.x - before.x, dx, tolerance: 1e-6)
      expectClose(after.y - before.y, dy, tolerance: 1e-6)
    }
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.map.pan(dx: 100, dy: 0)
    try fixture.map.settle()
    #expect(fixture.map.camera.target.longitude < Places.sydney.longitude, "a pan to the right moves the camera west")
  }

  @Test("R25: A pan is the opposite of scroll by")
  func aPanIsTheOppositeOfScrollBy() throws {
    let panned = try MapFixture(Places.sydney, zoom: 10)
    try panned.map.pan(dx: 40, dy: -25)
    try panned.map.settle()
    let scrolled = try MapFixture(Places.sydney, zoom: 10)
    try scrolled.map.moveCamera(.scrollBy(dx: -40, dy: 25))
    expectClose(panned.map.camera.target, scrolled.map.camera.target, tolerance: 1e-9)
  }

  @Test("R25: A rotation by a positive angle turns the content clockwise on the screen")
  func aRotationTurnsTheContentClockwise() throws {
    for degrees in [30.0, -30.0] {
      let fixture = try MapFixture(Places.sydney, zoom: 10)
      // North of the centre: straight above it on the screen before the turn.
      let north = try fixture.marker(
        "north", at: Coordinate(latitude: Places.sydney.latitude + 0.05, longitude: Places.sydney.longitude))
      let centre = try #require(fixture.map.projection.point(for: fixture.map.camera.target))
      let before = try screenPoint(of: north, on: fixture.map)
      try fixture.map.rotate(by: degrees)
      try fixture.map.settle()
      let after = try screenPoint(of: north, on: fixture.map)
      // The screen's y axis points down, so a clockwise turn is a positive angle of atan2(dx, -dy).
      let angle = { (p: Point) in atan2(p.x - centre.x, -(p.y - centre.y)) * 180 / .pi }
      expectClose(angle(after) - angle(before), degrees, tolerance: 1e-6)
      expectClose(fixture.map.camera.bearing, (360 - degrees).truncatingRemainder(dividingBy: 360))
    }
  }
}
