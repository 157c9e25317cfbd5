import Testing
import WaymarkCore
import WaymarkTesting

/// The [chosen] rules that are settings of the behaviour policy, each tested against its
/// alternative (docs/policy.md lists them all).
@Suite struct PolicySettingsTests {
  @Test("R4: Flat markers can be hit tested like billboards") func flatMarkersCanBeHitTestedLikeBillboards() throws {
    // R4: flat_markers_follow_bearing.
    var policy = BehaviorPolicy(name: "billboards")
    policy.flatMarkersFollowBearing = false
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12, bearing: 90), policy: policy)
    var options = MarkerOptions(position: Places.sydney)
    options.icon = .image(name: "bar", size: Size(width: 100, height: 10))
    options.groundAnchor = Point(x: 0.5, y: 0.5)
    options.flat = true
    let marker = try map.addMarker(options)
    let anchor = try #require(map.screenPoint(of: marker))
    #expect(map.topmostMarker(at: Point(x: anchor.x + 40, y: anchor.y)) === marker)
    #expect(map.topmostMarker(at: Point(x: anchor.x, y: anchor.y + 40)) == nil)
  }

  @Test("R24: Idle can follow an explicit move at once") func idleCanFollowAnExplicitMoveAtOnce() throws {
    // R24: idle_on_next_frame = false.
    var policy = BehaviorPolicy(name: "eager")
    policy.idleOnNextFrame = false
    let fixture = try MapFixture(Places.sydney, zoom: 5, policy: policy)
    try fixture.quiet()
    try fixture.map.moveCamera(.zoomTo(7))
    #expect(fixture.delegate.events == ["will_move(false)", "idle_at_camera_position"])
    #expect(
      fixture.delegate.calls.filter { !$0.contains("tile") }.prefix(3) == [
        "will_move(false)", "did_change_camera_position", "idle_at_camera_position",
      ])
    try fixture.map.settle()
    #expect(fixture.delegate.events.filter { $0 == "idle_at_camera_position" }.count == 1)
  }

  @Test("R26: Dependent channels stop every running animation") func dependentChannelsStopEveryRunningAnimation() throws
  {
    // R26: independent_camera_channels = false: a new animation stops the others.
    var policy = BehaviorPolicy(name: "android-like")
    policy.independentCameraChannels = false
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 4), policy: policy)
    var first: Bool?
    try map.animate(.zoomTo(8), duration: 2) { first = $0 }
    try map.advance(by: 1)
    let zoom = map.camera.zoom
    try map.animate(.change(CameraChange(bearing: 90)), duration: 0.5)
    #expect(first == false)
    try map.settle()
    #expect(map.camera.zoom == zoom, "the zoom stopped where it was")
    #expect(map.camera.bearing == 90)
  }

  @Test("R5: Overlays can outrank markers by z index") func overlaysCanOutrankMarkersByZIndex() throws {
    // R5: markers_above_overlays = false: the higher z-index wins between a marker and an overlay.
    var policy = BehaviorPolicy(name: "by-z")
    policy.markersAboveOverlays = false
    let fixture = try MapFixture(Places.sydney, zoom: 10, policy: policy)
    try fixture.map.addOverlay(
      OverlayOptions(shape: .circle(center: Places.sydney, radius: 9000), id: "zone", tappable: true, zIndex: 5))
    let marker = try fixture.marker("m", at: Places.sydney)
    let point = fixture.map.iconCenterForTest(Places.sydney)
    try fixture.map.tap(at: point)
    try marker.update { $0.zIndex = 10 }
    try fixture.map.tap(at: point)
    #expect(fixture.delegate.events.prefix(2) == ["did_tap_overlay(zone)", "did_tap_marker(m)"])
  }
}
