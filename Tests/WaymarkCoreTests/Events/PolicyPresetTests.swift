import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct PolicyPresetTests {
  @Test("R33: Android closes the window before the tap callback") func androidClosesTheWindowBeforeTheTapCallback()
    throws
  {
    // R33 android: the open info window closes before did_tap_marker runs.
    let fixture = try MapFixture(Places.sydney, zoom: 5, policy: .android)
    let a = try fixture.marker("a", at: Places.sydney, title: "A")
    let b = try fixture.marker("b", at: Places.melbourne, title: "B")
    try fixture.map.tap(a)
    fixture.delegate.calls.removeAll()
    try fixture.map.tap(b)
    #expect(
      fixture.delegate.events.prefix(3) == ["did_close_info_window(a)", "did_tap_marker(b)", "marker_info_window(b)"])
    #expect(fixture.map.infoWindow?.marker === b)
  }

  @Test("R33: Android cycles through overlapping markers") func androidCyclesThroughOverlappingMarkers() throws {
    // R33 android: overlapping markers cycle on repeated taps, by z-index, then distance.
    let fixture = try MapFixture(Places.sydney, zoom: 12, policy: .android)
    let near = try fixture.marker("near", at: Places.sydney, title: "near")
    let offset = Coordinate(latitude: Places.sydney.latitude, longitude: Places.sydney.longitude + 0.0001)
    let far = try fixture.marker("far", at: offset, title: "far")
    let top = try fixture.marker("top", at: offset, title: "top")
    try top.update { $0.zIndex = 5 }
    let point = fixture.map.iconCenterForTest(Places.sydney)
    var order: [String] = []
    for _ in 0..<4 {
      try fixture.map.tap(at: point)
      order.append(fixture.map.selectedMarker?.id ?? "none")
    }
    #expect(order == ["top", "near", "far", "top"])
    _ = (near, far)
  }

  @Test("R33: Web marker taps have no default") func webMarkerTapsHaveNoDefault() throws {
    // R33 web: a marker tap has no default behaviour (no selection, no window, no camera move).
    let fixture = try MapFixture(Places.sydney, zoom: 5, policy: .web)
    let m = try fixture.marker("m", at: Places.melbourne, title: "M")
    try fixture.quiet()
    try fixture.map.tap(m)
    try fixture.map.settle()
    #expect(fixture.delegate.events == ["did_tap_marker(m)"])
    #expect(fixture.map.selectedMarker == nil && fixture.map.camera.target == Places.sydney)
  }

  @Test("R33: Web POI taps show a default window unless stopped") func webPOITapsShowADefaultWindowUnlessStopped()
    throws
  {
    // R33 web: a POI tap shows a default window unless a handler stops it.
    let fixture = try MapFixture(Places.sydney, zoom: 14, policy: .web)
    let opera = Coordinate(latitude: -33.8568, longitude: 151.2153)
    try fixture.map.addPointOfInterest(PointOfInterest(placeID: "opera", name: "Sydney Opera House", location: opera))
    try fixture.map.tap(opera)
    #expect(fixture.map.infoWindow?.pointOfInterest?.placeID == "opera")
    #expect(fixture.map.infoWindow?.kind == .default)
    try fixture.map.tap(at: Point(x: 10, y: 10))
    #expect(fixture.map.infoWindow == nil)
    fixture.delegate.tapPOI = { _ in true }
    try fixture.map.tap(opera)
    #expect(fixture.map.infoWindow == nil)
  }

  @Test func iosIsTheDefaultAndPresetsAreNamed() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 5))
    #expect(map.policy == .ios)
    #expect(BehaviorPolicy.presets.keys.sorted() == ["android", "ios", "web"])
    var bad = BehaviorPolicy.ios
    bad.frameRate = 0
    #expect(throws: MapError.invalidValue(field: "policy.frameRate", value: "0", reason: "is outside 1...1000")) {
      try MapView(camera: CameraPosition(target: Places.sydney, zoom: 5), policy: bad)
    }
  }
}
