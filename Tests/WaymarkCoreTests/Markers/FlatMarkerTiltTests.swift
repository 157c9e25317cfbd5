import Testing
import WaymarkTesting

@testable import WaymarkCore

/// R44: a flat marker lies on the ground, so under tilt its box is foreshortened as the
/// ground is ("flat markers ... change perspective when the map is tilted").
@Suite struct FlatMarkerTiltTests {
  /// A 40 x 40 image marker standing at the target, flat or not, on a map tilted by `tilt`.
  private func map(tilt: Double, flat: Bool) throws -> (MapView, Marker, Point) {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 17, tilt: tilt))
    var options = MarkerOptions(position: Places.sydney, id: "m")
    options.icon = .image(name: "arrow", size: Size(width: 40, height: 40))
    options.flat = flat
    let marker = try map.addMarker(options)
    return (map, marker, try #require(map.screenPoint(of: marker)))
  }

  @Test("R44: at tilt 60 a flat marker's box is half its height: a tap 30 points above its anchor misses")
  func aFlatMarkerIsForeshortenedUnderTilt() throws {
    let (map, _, anchor) = try map(tilt: 60, flat: true)
    #expect(map.topmostMarker(at: Point(x: anchor.x, y: anchor.y - 15))?.id == "m", "within the 20 points left")
    #expect(map.topmostMarker(at: Point(x: anchor.x, y: anchor.y - 30)) == nil, "beyond cos(60) x 40 = 20 points")
    #expect(map.topmostMarker(at: Point(x: anchor.x + 19, y: anchor.y - 5))?.id == "m", "the width is kept")
  }

  @Test("R44, R4: an upright marker keeps its height under tilt; a flat one keeps it looking straight down")
  func onlyFlatMarkersUnderTiltAreForeshortened() throws {
    let (upright, _, uprightAnchor) = try map(tilt: 60, flat: false)
    #expect(upright.topmostMarker(at: Point(x: uprightAnchor.x, y: uprightAnchor.y - 30))?.id == "m")
    let (straightDown, _, anchor) = try map(tilt: 0, flat: true)
    #expect(straightDown.topmostMarker(at: Point(x: anchor.x, y: anchor.y - 30))?.id == "m")
  }

  @Test("R44: turned with the bearing, a flat marker is foreshortened along the screen's vertical")
  func aTurnedFlatMarkerIsForeshortenedOnTheScreen() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 17, bearing: 90, tilt: 60))
    var options = MarkerOptions(position: Places.sydney, id: "m")
    options.icon = .image(name: "arrow", size: Size(width: 40, height: 10))
    options.groundAnchor = Point(x: 0.5, y: 0.5)
    options.flat = true
    let marker = try map.addMarker(options)
    let anchor = try #require(map.screenPoint(of: marker))
    // Turned by -90 on the screen, its 40-point width runs up and down: 20 points under tilt.
    #expect(map.topmostMarker(at: Point(x: anchor.x, y: anchor.y - 9))?.id == "m")
    #expect(map.topmostMarker(at: Point(x: anchor.x, y: anchor.y - 12)) == nil)
    #expect(map.topmostMarker(at: Point(x: anchor.x + 4, y: anchor.y))?.id == "m", "its 10-point height, across")
    #expect(map.topmostMarker(at: Point(x: anchor.x + 7, y: anchor.y)) == nil)
  }

  @Test("R44: the info window's anchor on a flat marker is foreshortened with its box")
  func theWindowAnchorFollowsTheForeshortening() throws {
    let (map, marker, anchor) = try map(tilt: 60, flat: true)
    let top = MarkerGeometry.point(
      marker.infoWindowAnchor, of: marker, at: anchor, bearing: map.flatMarkerBearing,
      foreshortening: map.flatMarkerForeshortening)
    #expect(abs(top.y - (anchor.y - 20)) < 1e-9)
  }
}
