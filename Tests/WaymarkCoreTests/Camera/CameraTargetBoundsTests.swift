import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

/// R66: `GMSMapView.cameraTargetBounds`: "If not nil, constrains the camera target so that
/// gestures cannot cause it to leave the specified bounds."
@Suite struct CameraTargetBoundsTests {
  /// A box of about ±0.1 degrees around Sydney.
  private static let box = try! CoordinateBounds(
    northEast: Coordinate(latitude: -33.77, longitude: 151.31),
    southWest: Coordinate(latitude: -33.97, longitude: 151.11))

  @Test("R66: Gestures cannot take the target out of the bounds; it stops at their edge")
  func gesturesStopAtTheEdge() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let map = fixture.map
    try map.setCameraTargetBounds(Self.box)
    try map.pan(dx: -3000, dy: 0)  // the content left: the camera far east
    try map.settle()
    expectClose(map.camera.target.longitude, 151.31, tolerance: 1e-9)
    expectClose(map.camera.target.latitude, Places.sydney.latitude, tolerance: 1e-6)
    try map.pinch(zoomBy: 1, around: Point(x: 0, y: 0))  // the top left corner stays: the target goes north-west
    try map.settle()
    #expect(Self.box.contains(map.camera.target))
    // Every frame of a gesture held the target inside.
    let frames = map.trace.records.filter { $0.event == .callback(.didChangeCameraPosition) }.compactMap(\.camera)
    #expect(frames.count > 10)
    for camera in frames {
      #expect(Self.box.contains(camera.target), "a frame left the bounds: \(camera.target)")
    }
  }

  @Test("R66 [chosen]: moves made by code are not held, under the ios policy; the next gesture brings the target back")
  func codeMovesAreNotHeld() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    try map.setCameraTargetBounds(Self.box)
    try map.moveCamera(.setTarget(Places.melbourne))
    #expect(map.camera.target == Places.melbourne, "GMSMapView.cameraTargetBounds speaks of gestures only")
    try map.settle()
    try map.pan(dx: 10, dy: 0)
    try map.settle()
    #expect(Self.box.contains(map.camera.target))
    try map.setCameraTargetBounds(nil)
    try map.pan(dx: 3000, dy: 0)
    try map.settle()
    #expect(!Self.box.contains(map.camera.target), "nil lifts the bounds")
  }

  @Test("R66, R33: the web policy holds moves made by code too, and new bounds move the camera in at once")
  func theWebPolicyHoldsCodeMoves() throws {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 10), policy: .web)
    try map.settle()
    try map.setCameraTargetBounds(Self.box)
    #expect(Self.box.contains(map.camera.target))
    try map.animate(.setTarget(Places.melbourne))
    try map.settle()
    #expect(Self.box.contains(map.camera.target))
  }

  @Test("R66: the empty bounds are refused and change nothing")
  func emptyBoundsAreRefused() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    try map.setCameraTargetBounds(Self.box)
    #expect(throws: MapError.self) { try map.setCameraTargetBounds(.empty) }
    #expect(map.cameraTargetBounds == Self.box)
  }

  @Test("R66: clamping takes the nearer edge, across the antimeridian too")
  func clampingTakesTheNearerEdge() throws {
    let fiji = try CoordinateBounds(
      northEast: Coordinate(latitude: -15, longitude: -178), southWest: Coordinate(latitude: -20, longitude: 176))
    let map = try MapView(camera: CameraPosition(target: Coordinate(latitude: -18, longitude: 179), zoom: 6))
    try map.setCameraTargetBounds(fiji)
    try map.pan(dx: -2000, dy: -2000)  // far east and south
    try map.settle()
    expectClose(map.camera.target.longitude, -178, tolerance: 1e-9)
    expectClose(map.camera.target.latitude, -20, tolerance: 1e-9)
  }
}
