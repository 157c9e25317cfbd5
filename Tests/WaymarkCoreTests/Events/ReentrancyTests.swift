import Testing
import WaymarkCore
import WaymarkTesting

/// Callbacks that change the map while the map is changing it: the map stays consistent and
/// never traps.
@Suite struct ReentrancyTests {
  @Test("R12: Removing a marker from its own close callback is harmless")
  func removingAMarkerFromItsOwnCloseCallbackIsHarmless() throws {
    // R12: the marker is off the map before did_close_info_window runs.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let a = try fixture.marker("a", at: Places.sydney, title: "A")
    var seenOnMap: [Bool] = []
    fixture.delegate.closeInfoWindow = { map, marker in
      seenOnMap.append(marker.map != nil)
      try? map.remove(marker)
    }
    fixture.map.selectedMarker = a
    try fixture.map.remove(a)
    #expect(seenOnMap == [false])
    #expect(fixture.map.numberOfMarkers == 0 && fixture.map.selectedMarker == nil && fixture.map.infoWindow == nil)
  }

  @Test func removingAMarkerFromItsAnimationsCompletionIsHarmless() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let m = try fixture.marker("m", at: Places.sydney)
    try fixture.map.animate(m, to: Places.melbourne, duration: 1) { finished in
      if !finished { try? fixture.map.remove(m) }
    }
    try fixture.map.advance(by: 0.5)
    try fixture.map.remove(m)
    #expect(fixture.map.numberOfMarkers == 0 && m.map == nil)
    let n = try fixture.marker("n", at: Places.sydney)
    try fixture.map.animate(n, to: Places.melbourne, duration: 1) { _ in try? fixture.map.remove(n) }
    fixture.map.clear()
    #expect(fixture.map.numberOfMarkers == 0)
  }

  @Test func removingADraggedMarkerEndsItsDrag() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    var options = MarkerOptions(position: Places.sydney, id: "pin")
    options.draggable = true
    let pin = try fixture.map.addMarker(options)
    try fixture.map.drag(pin, to: Coordinate(latitude: -33.9, longitude: 151.3), duration: 1)
    try fixture.map.advance(by: 0.2)
    try fixture.map.remove(pin)
    try fixture.map.settle()
    #expect(fixture.delegate.events.first == "did_begin_dragging_marker(pin)")
    #expect(fixture.delegate.events.last == "did_end_dragging_marker(pin)")
  }

  @Test("R9, R12: A selection made in a close callback stands") func aSelectionMadeInACloseCallbackStands() throws {
    // R9-R12: the map never shows a window without its marker selected.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let a = try fixture.marker("a", at: Places.sydney, title: "A")
    let b = try fixture.marker("b", at: Places.melbourne, title: "B")
    fixture.delegate.closeInfoWindow = { map, marker in if marker === a { map.selectedMarker = b } }
    fixture.map.selectedMarker = a
    try fixture.map.tap(at: Point(x: 20, y: 20))
    #expect(fixture.map.selectedMarker === b)
    #expect(fixture.map.infoWindow?.marker === b)
  }

  @Test("R10, R13: The camera is not centred on a marker the resolution deselected")
  func theCameraIsNotCentredOnAMarkerTheResolutionDeselected() throws {
    // R10.4 with R13: the deferred changes run first; the camera follows only a marker
    // that is still selected and on the map.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let a = try fixture.marker("a", at: Places.melbourne, title: "A")
    // The map, not the fixture: the fixture holds the delegate, which holds this closure.
    fixture.delegate.infoWindow = { [map = fixture.map] marker in
      try? map.remove(marker)
      return nil
    }
    try fixture.quiet()
    try fixture.map.tap(a)
    try fixture.map.settle()
    #expect(a.map == nil && fixture.map.selectedMarker == nil)
    #expect(!fixture.delegate.events.contains("will_move(false)"))
    #expect(fixture.map.camera.target == Places.sydney)
  }

  @Test("R21: Extreme zooms and far points are clamped or refused never trapped")
  func extremeZoomsAndFarPointsAreClampedOrRefusedNeverTrapped() throws {
    // R21: the range is clamped to 0...30; a zoom about a point far away is refused.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 5))
    try map.setMinMaxZoom(min: 0, max: 64)
    #expect(map.maxZoom == 30)
    try map.moveCamera(.zoomTo(64))
    try map.settle()
    #expect(map.camera.zoom == 30)
    try map.setMinMaxZoom(min: -1e308, max: -1e300)
    #expect(map.minZoom == 0 && map.maxZoom == 0 && map.camera.zoom == 0)
    try map.setMinMaxZoom(min: 2, max: 21)
    #expect(throws: MapError.self) { try map.moveCamera(.zoomBy(2, around: Point(x: 1e308, y: 0))) }
    #expect(map.camera.zoom == 2)
    var bad = BehaviorPolicy.ios
    bad.maxZoom = 64
    #expect(throws: MapError.invalidValue(field: "policy.maxZoom", value: "64", reason: "is outside 0...30")) {
      try MapView(camera: CameraPosition(target: Places.sydney, zoom: 5), policy: bad)
    }
  }

  @Test("R28, R21: A zoom about a point keeps it fixed even when clamped")
  func aZoomAboutAPointKeepsItFixedEvenWhenClamped() throws {
    // R28 with R21: the point stays put for the zoom actually reached.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 20))
    let point = Point(x: 300, y: 700)
    let under = try #require(map.projection.coordinate(for: point))
    try map.moveCamera(.zoomBy(3, around: point))
    #expect(map.camera.zoom == 21)
    let after = try #require(map.projection.point(for: under))
    expectClose(after.x, point.x, tolerance: 1e-6)
    expectClose(after.y, point.y, tolerance: 1e-6)
  }

  @Test("R50: A fit whose padding is larger than the view zooms maximally out")
  func aFitWhosePaddingIsLargerThanTheViewZoomsMaximallyOut() throws {
    // GMSCameraUpdate: "If the requested |padding| is larger than the view size in either
    // the vertical or horizontal direction the map will be maximally zoomed out" (R50).
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 5, bearing: 30))
    let bounds = try CoordinateBounds(Places.sydney, Places.melbourne)
    try map.moveCamera(.fit(bounds, insets: EdgeInsets(all: 1000)))
    #expect(map.camera.zoom == map.minZoom)
    #expect(map.camera.bearing == 0)
    let centre = try #require(map.projection.coordinate(for: Point(x: 195, y: 422)))
    #expect(bounds.contains(centre))
    try map.setMinMaxZoom(min: 4, max: 21)
    try map.moveCamera(.fit(bounds, insets: EdgeInsets(top: 0, left: 200, bottom: 0, right: 200)))
    #expect(map.camera.zoom == 4, "one direction too large is enough; the zoom range still holds (R21)")
    #expect(throws: MapError.self) { try map.moveCamera(.fit(bounds, insets: EdgeInsets(all: -1))) }
  }
}
