import Testing
import WaymarkCore
import WaymarkTesting

/// The sample scenarios of the map semantics (section 9), from Google's public iOS samples,
/// asserted as exact callback sequences against the recording delegate, and as golden
/// traces (Scenarios/Golden; re-record with `WAYMARK_RECORD=1 swift test --filter SampleScenarioTests`).
@Suite struct SampleScenarioTests {
  @Test func s1MarkerEvents() throws {
    let fixture = try MapFixture(Places.melbourne, zoom: 4)
    let sydney = try fixture.marker("sydney", at: Places.sydney)
    let melbourne = try fixture.marker("melbourne", at: Places.melbourne)
    let icon = InfoWindowContent(.image(ImageNode(name: "Icon", width: 40, height: 40)))
    fixture.delegate.tapMarker = { map, marker in
      try? map.animate(.setCamera(CameraPosition(target: marker.position, zoom: 8, bearing: 50, tilt: 60)), duration: 3)
      return !(marker === melbourne && map.selectedMarker !== marker)
    }
    fixture.delegate.infoWindow = { marker in marker === melbourne ? icon : nil }
    try fixture.quiet()

    try fixture.map.tap(sydney)
    try fixture.map.settle()
    #expect(fixture.delegate.events == ["did_tap_marker(sydney)", "will_move(false)", "idle_at_camera_position"])
    #expect(fixture.map.selectedMarker == nil)
    expectClose(fixture.map.camera.tilt, 30, tolerance: 1e-9)  // 60 clamped to the zoom-8 maximum (R22)
    #expect(fixture.map.camera.zoom == 8 && fixture.map.camera.bearing == 50)

    fixture.delegate.calls.removeAll()
    try fixture.map.tap(melbourne)
    try fixture.map.settle()
    #expect(
      fixture.delegate.events == [
        "did_tap_marker(melbourne)", "will_move(false)", "marker_info_window(melbourne)", "will_move(false)",
        "idle_at_camera_position",
      ])
    #expect(fixture.map.selectedMarker === melbourne)
    #expect(fixture.map.infoWindow?.kind == .window && fixture.map.infoWindow?.content == icon)

    fixture.delegate.calls.removeAll()
    try fixture.map.tap(melbourne)
    try fixture.map.settle()
    #expect(fixture.delegate.events == ["did_tap_marker(melbourne)", "will_move(false)", "idle_at_camera_position"])
    #expect(fixture.map.infoWindow?.marker === melbourne, "handled: the window stays")

    fixture.delegate.calls.removeAll()
    try fixture.map.tap(at: Point(x: 30, y: 800))
    #expect(fixture.delegate.events == ["did_tap_at_coordinate", "did_close_info_window(melbourne)"])
    #expect(fixture.map.selectedMarker == nil && fixture.map.infoWindow == nil)
    let vetoes = fixture.map.trace.records.filter { $0.event == .callback(.didTapMarker) }.map(\.result)
    #expect(vetoes == [.bool(true), .bool(false), .bool(true)])
    try GoldenTrace("S1", besideSource: #filePath).check(fixture.map.trace.records)
  }

  @Test func s2CustomInfoWindows() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 4)
    let sydney = try fixture.marker("sydney", at: Places.sydney, title: "Sydney", snippet: "Population: 4,605,992")
    let melbourne = try fixture.marker(
      "melbourne", at: Places.melbourne, title: "Melbourne", snippet: "Population: 4,169,103")
    let brisbane = try fixture.marker(
      "brisbane", at: Places.brisbane, title: "Brisbane", snippet: "Population: 2,189,878")
    var log: [String] = []
    fixture.delegate.infoWindow = { $0 === sydney ? text("Custom Sydney window") : nil }
    fixture.delegate.infoContents = { $0 === brisbane ? text("Custom Brisbane contents") : nil }
    fixture.delegate.closeInfoWindow = { _, marker in log.append("\(marker.title!) closed") }
    fixture.delegate.longPressInfoWindow = { _, marker in log.append("\(marker.title!) long pressed") }
    try fixture.quiet()

    try fixture.map.tap(sydney)
    try fixture.map.settle()
    #expect(fixture.map.infoWindow?.kind == .window)
    #expect(
      fixture.delegate.events.filter { $0.hasPrefix("marker_info") } == ["marker_info_window(sydney)"],
      "contents not asked")

    try fixture.map.tap(brisbane)
    try fixture.map.settle()
    #expect(log == ["Sydney closed"])
    #expect(fixture.map.infoWindow?.kind == .contents)

    try fixture.map.tap(melbourne)
    try fixture.map.settle()
    #expect(log == ["Sydney closed", "Brisbane closed"])
    #expect(fixture.map.infoWindow?.kind == .default)
    #expect(fixture.map.infoWindow?.layout.content.children.count == 2, "bold title and snippet")

    try fixture.map.longPressInfoWindow()
    #expect(log.last == "Melbourne long pressed")
    try fixture.map.tap(at: Point(x: 20, y: 820))
    #expect(log == ["Sydney closed", "Brisbane closed", "Melbourne long pressed", "Melbourne closed"])
    #expect(fixture.map.selectedMarker == nil)
    try GoldenTrace("S2", besideSource: #filePath).check(fixture.map.trace.records)
  }

  @Test func s3MarkerLayerFliesTheLoopAndFadesTappedPlanes() throws {
    let amsterdam = Coordinate(latitude: 52.310683, longitude: 4.765121)
    let stops = [
      amsterdam, Coordinate(latitude: 51.471386, longitude: -0.457148),
      Coordinate(latitude: 49.01378, longitude: 2.5542943), Coordinate(latitude: 50.036194, longitude: 8.554519),
    ]
    let fixture = try MapFixture(Coordinate(latitude: 51, longitude: 4), zoom: 5)
    var options = MarkerOptions(position: amsterdam, id: "plane")
    options.flat = true
    options.groundAnchor = Point(x: 0.5, y: 0.5)
    options.icon = .image(name: "aeroplane", size: Size(width: 40, height: 40))
    let plane = try fixture.map.addMarker(options)
    var hops: [Double] = []
    func fly(_ index: Int) {
      let from = plane.position, to = stops[index % stops.count]
      try? plane.update { $0.rotation = from.heading(to: to) }
      let duration = from.distance(to: to) / 50_000
      hops.append(duration)
      guard hops.count < 5 else { return }
      try? fixture.map.animate(plane, to: to, duration: duration) { finished in if finished { fly(index + 1) } }
    }
    var faded: Marker?
    fixture.delegate.tapMarker = { _, marker in
      if let previous = faded { try? previous.update { $0.opacity = 1 } }
      try? marker.update { $0.opacity = 0.5 }
      faded = marker
      return true
    }
    fixture.delegate.tapAt = { _, _ in
      try? faded?.update { $0.opacity = 1 }
      faded = nil
    }
    fly(1)
    try fixture.map.advance(by: 3)
    try fixture.map.tap(plane)
    #expect(plane.opacity == 0.5 && fixture.map.selectedMarker == nil)
    try fixture.map.tap(at: Point(x: 5, y: 5))
    #expect(plane.opacity == 1)
    try fixture.map.settle()
    #expect(plane.position == amsterdam, "the loop closes after four hops")
    #expect(hops.count == 5)
    expectClose(hops[0], stops[0].distance(to: stops[1]) / 50_000, tolerance: 1e-9)
    expectClose(plane.rotation, stops[0].heading(to: stops[1]), tolerance: 1e-9, "the fifth hop turned towards London")
  }

  @Test func s4FitBounds() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 4)
    let other = Coordinate(latitude: -33.8683, longitude: 149.2086)
    try fixture.marker("sydney", at: Places.sydney)
    try fixture.marker("other", at: other)
    fixture.delegate.longPressAt = { map, coordinate in
      _ = try? map.addMarker(
        MarkerOptions(
          position: coordinate,
          title:
            "Marker at: \(formatNumber(coordinate.latitude, decimals: 6)), \(formatNumber(coordinate.longitude, decimals: 6))"
        ))
    }
    try fixture.quiet()
    try fixture.map.moveCamera(.fit(try CoordinateBounds(Places.sydney, other), insets: EdgeInsets(all: 50)))
    #expect(fixture.delegate.calls.prefix(2) == ["will_move(false)", "did_change_camera_position"])
    #expect(fixture.map.camera.bearing == 0 && fixture.map.camera.tilt == 0)
    let a = try #require(fixture.map.projection.point(for: Places.sydney))
    let b = try #require(fixture.map.projection.point(for: other))
    expectClose(abs(a.x - b.x), 290, tolerance: 1e-6)
    try fixture.map.longPress(at: Point(x: 195, y: 600))
    let added = try #require(fixture.map.markers.last)
    #expect(added.title?.hasPrefix("Marker at: -3") == true)
    #expect(fixture.map.numberOfMarkers == 3)
    try GoldenTrace("S4", besideSource: #filePath).check(fixture.map.trace.records)
  }

  @Test func s5MinMaxZoomCyclesClampTheZoom() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 6)
    var zooms: [Double] = []
    for (min, max) in [(2.0, 21.0), (18, 21), (2, 8), (10, 11.5)] {
      try fixture.map.setMinMaxZoom(min: min, max: max)
      zooms.append(fixture.map.camera.zoom)
    }
    #expect(zooms == [6, 18, 8, 10])
    try GoldenTrace("S5", besideSource: #filePath).check(fixture.map.trace.records)
  }

  @Test func s6CameraAnimationSettlesZoomTurnsBearingSaturatesTilt() throws {
    let fixture = try MapFixture(Places.melbourne, zoom: 20)
    try fixture.quiet()
    // The timer holds the map weakly: the map's clock holds the timer, which re-arms forever.
    func step(_ map: MapView) {
      let camera = map.camera
      try? map.animate(
        .change(CameraChange(zoom: max(camera.zoom - 0.1, 17.5), bearing: camera.bearing + 10, tilt: camera.tilt + 10)))
      map.clock.schedule(at: map.clock.now + 1.0 / 30) { [weak map] in if let map { step(map) } }
    }
    step(fixture.map)
    // Each animation is replaced after 1/30 s, starting again from rest (ease in, R26, R27),
    // so the camera creeps: it takes about a minute of virtual time to settle.
    try fixture.map.advance(by: 10)
    #expect(fixture.map.camera.zoom < 20 && fixture.map.camera.tilt > 0)
    try fixture.map.advance(by: 110)
    expectClose(fixture.map.camera.zoom, 17.5, tolerance: 1e-6)
    expectClose(fixture.map.camera.tilt, 65, tolerance: 1e-9)
    let bearing = fixture.map.camera.bearing
    try fixture.map.advance(by: 1)
    #expect(abs(fixture.map.camera.bearing - bearing) > 1, "the bearing keeps turning")
    #expect(fixture.delegate.events.filter { $0 == "will_move(false)" }.count > 300)
    #expect(throws: MapError.self) { try fixture.map.settle(limit: 5) }
  }
}
