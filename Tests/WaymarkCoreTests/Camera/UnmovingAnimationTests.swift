import Testing
import WaymarkCore
import WaymarkTesting

/// R23: an animation that does not move the camera still reports its final frame, the same
/// way for every kind of camera update.
@Suite struct UnmovingAnimationTests {
  /// The camera callbacks `update` makes when animated from Sydney at zoom 6, and whether its
  /// completion said finished.
  private func callbacks(_ update: (MapView) -> CameraUpdate, maxZoom: Double? = nil) throws -> ([String], [Bool]) {
    let fixture = try MapFixture(Places.sydney, zoom: 6)
    if let maxZoom { try fixture.map.setMinMaxZoom(min: 2, max: maxZoom) }
    try fixture.quiet()
    let before = fixture.map.camera
    var finished: [Bool] = []
    try fixture.map.animate(update(fixture.map), duration: 1) { finished.append($0) }
    try fixture.map.settle()
    #expect(fixture.map.camera == before)
    let calls = fixture.delegate.calls.filter { !$0.contains("tile") && $0 != "snapshot_ready" }
    return (calls, finished)
  }

  static let oneFinalFrame = ["will_move(false)", "did_change_camera_position", "idle_at_camera_position"]

  @Test("R23: Updates that do not move the camera report exactly one final frame")
  func updatesThatDoNotMoveReportOneFinalFrame() throws {
    let updates: [(String, (MapView) -> CameraUpdate)] = [
      ("scroll_by 0, 0", { _ in .scrollBy(dx: 0, dy: 0) }),
      ("zoom_by 0", { _ in .zoomBy(0) }),
      ("zoom_by 0 about a point", { _ in .zoomBy(0, around: Point(x: 10, y: 20)) }),
      ("zoom = current", { map in .change(CameraChange(zoom: map.camera.zoom)) }),
      ("zoom_to current", { map in .zoomTo(map.camera.zoom) }),
      ("the whole camera it has", { map in .setCamera(map.camera) }),
      ("bearing + 360", { map in .change(CameraChange(bearing: map.camera.bearing + 360)) }),
      ("target it has", { map in .setTarget(map.camera.target) }),
    ]
    for (name, update) in updates {
      let (calls, finished) = try callbacks(update)
      #expect(calls == Self.oneFinalFrame, "\(name)")
      #expect(finished == [true], "\(name)")
    }
  }

  @Test("R23: A fit the camera already has reports one final frame")
  func aFitTheCameraAlreadyHasReportsOneFinalFrame() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 6)
    let bounds = try CoordinateBounds(including: [Places.sydney, Places.melbourne])
    try fixture.map.moveCamera(.fit(bounds))
    try fixture.quiet()
    try fixture.map.animate(.fit(bounds))
    try fixture.map.settle()
    let calls = fixture.delegate.calls.filter { !$0.contains("tile") && $0 != "snapshot_ready" }
    #expect(calls == Self.oneFinalFrame)
  }

  @Test("R23: Zooming in at the largest zoom reports one final frame")
  func zoomingInAtTheLargestZoomReportsOneFinalFrame() throws {
    let (calls, finished) = try callbacks({ _ in .zoomIn }, maxZoom: 6)
    #expect(calls == Self.oneFinalFrame)
    #expect(finished == [true])
  }

  @Test("R23, R26: An unmoving update of a running channel stops it where it is")
  func anUnmovingUpdateOfARunningChannelStopsIt() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 6)
    try fixture.quiet()
    var first: [Bool] = []
    try fixture.map.animate(.zoomTo(10), duration: 1) { first.append($0) }
    try fixture.map.advance(by: 0.5)
    let zoom = fixture.map.camera.zoom
    try fixture.map.animate(.change(CameraChange(zoom: zoom)), duration: 0.1)
    try fixture.map.settle()
    #expect(first == [false])
    #expect(fixture.map.camera.zoom == zoom)
  }
}
