import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct TilesAndLocationTests {
  @Test("R31, R53: Tiles render after the latency then the snapshot is ready; a new map goes idle")
  func tilesRenderAfterTheLatencyThenTheSnapshotIsReady() throws {
    // R31: a new tile set: did_start_tile_rendering; after the latency,
    // did_finish_tile_rendering; snapshot_ready once the camera is idle and tiles loaded.
    // R53: idleAtCameraPosition is "called when the map becomes idle": a new map does, at 0.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.map.advance(by: 0)
    let start = ["did_start_tile_rendering", "idle_at_camera_position"]
    #expect(fixture.delegate.calls == start)
    try fixture.map.advance(by: 0.2)
    #expect(fixture.delegate.calls == start)
    try fixture.map.advance(by: 0.05)
    #expect(fixture.delegate.calls == start + ["did_finish_tile_rendering", "snapshot_ready"])
  }

  @Test("R53: A move made before time first passes owes the only idle")
  func aMoveBeforeTimeFirstPassesOwesTheOnlyIdle() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.map.animate(.zoomTo(12), duration: 0.1)
    try fixture.map.settle()
    let idles = fixture.delegate.calls.filter { $0.hasPrefix("idle") }
    #expect(idles == ["idle_at_camera_position"], "one idle, after the animation")
    #expect(fixture.map.camera.zoom == 12)
  }

  @Test("R54: snapshot_ready after every move that makes the map stable, new tiles or not")
  func snapshotReadyAfterEveryMove() throws {
    // mapViewSnapshotReady: "Called when map is stable (tiles loaded, labels rendered,
    // camera idle)"; Google's SnapshotReady sample waits for the next one after any move.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.quiet()
    try fixture.map.animate(.scrollBy(dx: 1, dy: 0))
    try fixture.map.settle()
    #expect(!fixture.delegate.calls.contains("did_start_tile_rendering"), "a one-point pan needs no new tiles")
    #expect(Array(fixture.delegate.calls.suffix(2)) == ["idle_at_camera_position", "snapshot_ready"])
    fixture.delegate.calls.removeAll()
    try fixture.map.moveCamera(.scrollBy(dx: -1, dy: 0))
    try fixture.map.settle()
    #expect(Array(fixture.delegate.calls.suffix(2)) == ["idle_at_camera_position", "snapshot_ready"])
    #expect(fixture.delegate.calls.filter { $0 == "snapshot_ready" }.count == 1, "once a stable map")
    fixture.delegate.calls.removeAll()
    try fixture.map.advance(by: 5)
    #expect(fixture.delegate.calls.isEmpty, "a map that stays still says nothing more")
  }

  @Test func moreTilesDuringAMoveStillRenderOnceAndTheSnapshotWaitsForIdle() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.quiet()
    try fixture.map.animate(.setTarget(Places.melbourne), duration: 2)
    try fixture.map.settle()
    let tiles = fixture.delegate.calls.filter { $0.contains("tile") || $0 == "snapshot_ready" || $0.hasPrefix("idle") }
    #expect(
      tiles == ["did_start_tile_rendering", "idle_at_camera_position", "did_finish_tile_rendering", "snapshot_ready"])
  }

  @Test func aSmallMoveWithinTheSameTilesRequestsNothing() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 3)
    try fixture.quiet()
    try fixture.map.moveCamera(.scrollBy(dx: 1, dy: 0))
    try fixture.map.settle()
    #expect(!fixture.delegate.calls.contains("did_start_tile_rendering"))
  }

  @Test("R32: The my location button animates unless handled") func theMyLocationButtonAnimatesUnlessHandled() throws {
    // R32: off by default; when enabled with a location, the button asks
    // did_tap_my_location_button; false animates the camera to the location.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.quiet()
    try fixture.map.tapMyLocationButton()
    #expect(fixture.delegate.calls.isEmpty, "off by default")
    fixture.map.isMyLocationEnabled = true
    fixture.map.deviceLocation = Places.melbourne
    fixture.delegate.myLocationButton = { true }
    try fixture.map.tapMyLocationButton()
    #expect(fixture.delegate.calls == ["did_tap_my_location_button"])
    fixture.delegate.myLocationButton = nil
    try fixture.map.tapMyLocationButton()
    #expect(fixture.delegate.calls == ["did_tap_my_location_button", "did_tap_my_location_button", "will_move(false)"])
    try fixture.map.settle()
    #expect(fixture.map.camera.target == Places.melbourne)
    let vetoes = fixture.map.trace.records.filter { $0.event == .callback(.didTapMyLocationButton) }.map(\.result)
    #expect(vetoes == [.bool(true), .bool(false)])
  }

  @Test("R32: A tap on the dot reports the location") func aTapOnTheDotReportsTheLocation() throws {
    // R32: a tap on the location dot fires did_tap_my_location(location).
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    fixture.map.isMyLocationEnabled = true
    fixture.map.deviceLocation = Coordinate(latitude: -33.87, longitude: 151.21)
    try fixture.map.tap(Coordinate(latitude: -33.87, longitude: 151.21))
    #expect(fixture.delegate.events == ["did_tap_my_location"])
  }

  @Test("R52: my location is nil while My Location is off; the device location is an input")
  func myLocationIsNilWhileMyLocationIsOff() throws {
    // GMSMapView.myLocation: "If it is disabled, or it is enabled but no location data is
    // available, this will be nil." (R52)
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    fixture.map.deviceLocation = Places.melbourne
    #expect(fixture.map.myLocation == nil, "off by default: nil although the device knows")
    fixture.map.isMyLocationEnabled = true
    #expect(fixture.map.myLocation == Places.melbourne)
    fixture.map.deviceLocation = nil
    #expect(fixture.map.myLocation == nil, "on, but no location data")
    fixture.map.deviceLocation = Places.sydney
    fixture.map.isMyLocationEnabled = false
    #expect(fixture.map.myLocation == nil)
    #expect(fixture.map.deviceLocation == Places.sydney, "the input is kept while the dot is off")
  }

  @Test func capabilityChangesAreReportedOnce() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    fixture.map.capabilities = [.advancedMarkers]
    fixture.map.capabilities = [.advancedMarkers]
    fixture.map.capabilities = [.advancedMarkers, .dataDrivenStyling]
    #expect(
      fixture.delegate.events == [
        "did_change_map_capabilities(advanced_markers)",
        "did_change_map_capabilities(advanced_markers,data_driven_styling)",
      ])
  }
}

@Suite struct ViewTests {
  @Test("R47: a resize keeps the target at the centre and reports the camera's new region, then the new tiles")
  func aNewViewSizeRequestsTilesAndMovesTheCentre() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.quiet()
    #expect(fixture.map.isSettled)
    let before = fixture.map.projection.visibleRegion
    try fixture.map.setViewSize(Size(width: 1200, height: 800))
    #expect(!fixture.map.isSettled, "the new tiles are loading")
    #expect(fixture.delegate.calls == ["will_move(false)", "did_change_camera_position", "did_start_tile_rendering"])
    let centre = try #require(fixture.map.projection.point(for: Places.sydney))
    #expect(centre == Point(x: 600, y: 400))
    #expect(fixture.map.camera.target == Places.sydney)
    #expect(fixture.map.projection.visibleRegion != before)
    try fixture.map.settle()
    #expect(fixture.map.isSettled)
    #expect(
      fixture.delegate.calls == [
        "will_move(false)", "did_change_camera_position", "did_start_tile_rendering", "idle_at_camera_position",
        "did_finish_tile_rendering", "snapshot_ready",
      ])
    try fixture.map.setViewSize(Size(width: 1200, height: 800))
    #expect(fixture.map.isSettled, "the same size changes nothing")
    #expect(throws: MapError.invalidValue(field: "size.width", value: "-1", reason: "is negative")) {
      try fixture.map.setViewSize(Size(width: -1, height: 10))
    }
    #expect(fixture.map.viewSize == Size(width: 1200, height: 800), "nothing applied")
  }
}
