import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct CameraAnimationTests {
  @Test("R23: Animation calls will move frames then idle once") func animationCallsWillMoveFramesThenIdleOnce() throws {
    // R23: will_move(false), did_change on every frame, the final position included, idle once.
    let fixture = try MapFixture(Places.sydney, zoom: 6)
    try fixture.quiet()
    try fixture.map.animate(.zoomTo(8), duration: 1)
    try fixture.map.settle()
    let calls = fixture.delegate.calls.filter { !$0.contains("tile") && $0 != "snapshot_ready" }
    #expect(calls.first == "will_move(false)")
    #expect(calls.last == "idle_at_camera_position")
    #expect(calls.filter { $0 == "did_change_camera_position" }.count == 60, "60 frames a second for 1 s (R27)")
    #expect(calls.filter { $0 == "idle_at_camera_position" }.count == 1)
    #expect(fixture.map.camera.zoom == 8, "the final position is exact")
  }

  @Test("R24: Explicit move is instant with idle at the next frame") func explicitMoveIsInstantWithIdleAtTheNextFrame()
    throws
  {
    // R24: will_move(false), did_change once, then idle_at at the next frame tick.
    let fixture = try MapFixture(Places.sydney, zoom: 6)
    try fixture.quiet()
    try fixture.map.moveCamera(.zoomTo(9))
    #expect(fixture.delegate.calls.prefix(2) == ["will_move(false)", "did_change_camera_position"])
    #expect(fixture.map.camera.zoom == 9)
    try fixture.map.advance(by: 1.0 / 60)
    #expect(fixture.delegate.events == ["will_move(false)", "idle_at_camera_position"])
  }

  @Test("R27: Easing is ease in ease out") func easingIsEaseInEaseOut() throws {
    // R27: ease in, ease out: slow at both ends, half way at half time.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 4))
    try map.animate(.zoomTo(8), duration: 1)
    try map.advance(by: 0.1)
    let early = map.camera.zoom - 4
    try map.advance(by: 0.4)
    expectClose(map.camera.zoom, 6, tolerance: 1e-6)
    #expect(early < 0.4 * 0.5, "slower than linear at the start")
    expectClose(Easing.easeInOut.value(at: 0.5), 0.5, tolerance: 1e-12)
    #expect(Easing.easeInOut.value(at: 0.1) < 0.1 && Easing.easeInOut.value(at: 0.9) > 0.9)
  }

  @Test("R27: Duration defaults to the setting and completion reports finished")
  func durationDefaultsToTheSettingAndCompletionReportsFinished() throws {
    // R27: default 0.3 s, overridable per call, with a completion callback.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 4))
    var finished: [Bool] = []
    try map.animate(.zoomTo(5)) { finished.append($0) }
    try map.advance(by: 0.29)
    #expect(finished.isEmpty)
    try map.advance(by: 0.02)
    #expect(finished == [true])
  }

  @Test("R26: Channels animate independently") func channelsAnimateIndependently() throws {
    // R26: a new animation of a channel replaces the running one; other channels keep running;
    // will_move(false) fires for each; idle once when all stop.
    let fixture = try MapFixture(Places.sydney, zoom: 4)
    try fixture.quiet()
    var results: [String] = []
    try fixture.map.animate(.change(CameraChange(zoom: 8, bearing: 90)), duration: 2) { results.append("first \($0)") }
    try fixture.map.advance(by: 0.5)
    try fixture.map.animate(.change(CameraChange(bearing: 180)), duration: 0.5) { results.append("second \($0)") }
    try fixture.map.advance(by: 0.6)
    #expect(fixture.map.camera.bearing == 180)
    #expect(fixture.map.camera.zoom < 8, "zoom keeps running on its own")
    #expect(results == ["second true"])
    try fixture.map.settle()
    #expect(fixture.map.camera.zoom == 8)
    #expect(results == ["second true", "first false"], "the first lost its bearing channel: interrupted")
    #expect(fixture.delegate.events == ["will_move(false)", "will_move(false)", "idle_at_camera_position"])
  }

  @Test func aReplacedChannelContinuesFromItsCurrentValue() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 4))
    try map.animate(.zoomTo(10), duration: 1)
    try map.advance(by: 0.5)
    let midway = map.camera.zoom
    try map.animate(.zoomTo(2), duration: 1)
    try map.advance(by: 1.0 / 60)
    #expect(abs(map.camera.zoom - midway) < 0.1, "no jump when replaced")
  }

  @Test("R25: A gesture stops the animation in place") func aGestureStopsTheAnimationInPlace() throws {
    // R25: a gesture during an animation stops it in place and fires will_move(true).
    let fixture = try MapFixture(Places.sydney, zoom: 4)
    try fixture.quiet()
    var finished: Bool?
    try fixture.map.animate(.zoomTo(10), duration: 2) { finished = $0 }
    try fixture.map.advance(by: 0.5)
    let zoom = fixture.map.camera.zoom
    try fixture.map.rotate(by: 30, duration: 0.5)
    #expect(finished == false)
    try fixture.map.settle()
    expectClose(fixture.map.camera.zoom, zoom)
    expectClose(fixture.map.camera.bearing, 330, "a clockwise turn of the content lowers the bearing")
    #expect(fixture.delegate.events == ["will_move(false)", "will_move(true)", "idle_at_camera_position"])
  }

  @Test("R25: Gestures follow the finger and end idle") func gesturesFollowTheFingerAndEndIdle() throws {
    // R25: will_move(true), did_change each frame, idle when it ends.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.quiet()
    let start = fixture.map.camera
    try fixture.map.pan(dx: 100, dy: 0, duration: 0.5)
    try fixture.map.settle()
    #expect(fixture.delegate.events == ["will_move(true)", "idle_at_camera_position"])
    #expect(fixture.delegate.calls.filter { $0 == "did_change_camera_position" }.count == 30)
    // The content follows the finger: what was 100 points left of the centre is there now.
    let moved = Projection(camera: start, viewSize: fixture.map.viewSize).coordinate(for: Point(x: 95, y: 422))!
    expectClose(fixture.map.camera.target, moved, tolerance: 1e-9)
    try fixture.map.pinch(zoomBy: 2)
    try fixture.map.settle()
    try fixture.map.doubleTap(at: Point(x: 100, y: 100))
    try fixture.map.settle()
    expectClose(fixture.map.camera.zoom, 13)
    // A new gesture stops the running one where it is.
    try fixture.map.tilt(by: 20, duration: 1)
    try fixture.map.advance(by: 0.5)
    try fixture.map.rotate(by: 90, duration: 0.5)
    try fixture.map.settle()
    expectClose(fixture.map.camera.tilt, 10, tolerance: 1e-9)
    expectClose(fixture.map.camera.bearing, 270)
  }

  @Test("R25: Disabled gestures are ignored but code still moves") func disabledGesturesAreIgnoredButCodeStillMoves()
    throws
  {
    // R25: gesture flags disable gestures, never code-driven moves.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.quiet()
    fixture.map.settings.rotateGestures = false
    fixture.map.settings.zoomGestures = false
    try fixture.map.rotate(by: 45)
    try fixture.map.pinch(zoomBy: 1)
    try fixture.map.settle()
    #expect(fixture.map.camera.bearing == 0 && fixture.map.camera.zoom == 10)
    #expect(fixture.delegate.calls.isEmpty)
    #expect(fixture.map.trace.records.filter { $0.event == .warning }.count == 2)
    try fixture.map.animate(.change(CameraChange(bearing: 45)))
    try fixture.map.settle()
    #expect(fixture.map.camera.bearing == 45)
  }

  @Test func bearingAnimatesTheShortWayAround() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10, bearing: 350))
    try map.animate(.change(CameraChange(bearing: 10)), duration: 1)
    try map.advance(by: 0.5)
    #expect(map.camera.isClose(to: CameraPosition(target: Places.sydney, zoom: 10, bearing: 0), tolerance: 1e-9))
  }

  @Test func explicitMoveInterruptsAnimations() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 4))
    var finished: Bool?
    try map.animate(.zoomTo(10), duration: 1) { finished = $0 }
    try map.advance(by: 0.2)
    try map.moveCamera(.setTarget(Places.melbourne))
    #expect(finished == false)
    try map.settle()
    #expect(map.camera.target == Places.melbourne)
    #expect(map.camera.zoom < 10)
  }

  @Test func settleGivesUpAtItsLimitAndRefusesBadLimits() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 4))
    // The completion holds the map weakly: the map holds the animation, which never ends.
    func spin(_ map: MapView) {
      try? map.animate(.change(CameraChange(bearing: map.camera.bearing + 90)), duration: 1) { [weak map] _ in
        if let map { spin(map) }
      }
    }
    spin(map)
    do {
      try map.settle(limit: 5)
      Issue.record("an animation that re-arms itself forever settled")
    } catch {
      guard case .didNotSettle(5, let pending) = error else { throw error }
      #expect(pending.hasPrefix("camera animation"))
    }
    #expect(map.clock.now == 5)
    #expect(throws: MapError.invalidValue(field: "settle.limit", value: "nan", reason: "is not a finite number")) {
      try map.settle(limit: .nan)
    }
    map.settleTimeLimit = 2
    #expect(throws: MapError.self) { try map.settle() }
    #expect(map.clock.now == 7)
  }
}
