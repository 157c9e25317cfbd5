import Testing
import WaymarkCore
import WaymarkTesting

/// Records every change as a short line ("added(a)", "camera", "input(tap 10,20)").
private final class ChangeLog: MapObserver {
  var lines: [String] = []
  var onChange: ((MapView, MapChange) -> Void)?

  func mapView(_ mapView: MapView, didChange change: MapChange) {
    onChange?(mapView, change)
    switch change {
    case .markerAdded(let marker): lines.append("added(\(marker.id))")
    case .markerRemoved(let marker): lines.append("removed(\(marker.id))")
    case .markerMoved(let marker): lines.append("moved(\(marker.id))")
    case .markerChanged(let marker): lines.append("changed(\(marker.id))")
    case .overlaysChanged: lines.append("overlays")
    case .placesChanged: lines.append("places")
    case .selectionChanged: lines.append("selection")
    case .cameraMoved: lines.append("camera")
    case .cameraIdle: lines.append("idle")
    case .viewChanged: lines.append("view")
    case .input(let input): lines.append("input(\(input.kind.rawValue) \(input.point.x),\(input.point.y))")
    }
  }

  /// The lines without camera frames.
  var withoutFrames: [String] { lines.filter { $0 != "camera" } }
}

@Suite struct MapObservationTests {
  @Test func markersAreToldWhenAddedMovedChangedAndRemoved() throws {
    let fixture = try MapFixture()
    let log = ChangeLog()
    fixture.map.addObserver(log)
    let a = try fixture.marker("a", at: Places.melbourne)
    let b = try fixture.marker("b", at: Places.sydney)
    try a.update { $0.title = "A" }
    try fixture.map.animate(b, to: Places.brisbane, duration: 1 / 30.0)
    try fixture.map.settle()
    try fixture.map.remove(a)
    fixture.map.clear()
    #expect(
      log.withoutFrames == [
        "added(a)", "added(b)", "changed(a)", "idle", "moved(b)", "moved(b)", "removed(a)", "removed(b)",
      ],
      "nothing else changed: no overlay, no selection; the new map went idle when time first passed (R53)")
    #expect(b.map == nil)
  }

  @Test func selectionCameraFramesAndIdleAreToldInOrder() throws {
    let fixture = try MapFixture()
    let sydney = try fixture.marker("sydney", at: Places.sydney, title: "Sydney")
    try fixture.quiet()
    let log = ChangeLog()
    var idleCallbacksSeenByObserver: [Int] = []
    log.onChange = { _, change in
      if case .cameraIdle = change {
        idleCallbacksSeenByObserver.append(fixture.delegate.calls.filter { $0 == "idle_at_camera_position" }.count)
      }
    }
    fixture.map.addObserver(log)
    let anchor = try #require(fixture.map.iconCenter(of: sydney))
    try fixture.map.tap(sydney)
    try fixture.map.settle()
    #expect(log.lines.first == "input(tap \(anchor.x),\(anchor.y))")
    #expect(log.withoutFrames == ["input(tap \(anchor.x),\(anchor.y))", "selection", "selection", "idle"])
    let frames = fixture.delegate.calls.filter { $0 == "did_change_camera_position" }.count
    #expect(frames == 18, "the centring animation: 0.3 s at 60 frames per second")
    #expect(log.lines.filter { $0 == "camera" }.count == frames)
    #expect(idleCallbacksSeenByObserver == [1], "told after idle_at_camera_position ran")
  }

  @Test func touchesOverlaysPlacesAndTheViewAreTold() throws {
    let fixture = try MapFixture()
    try fixture.quiet()
    let log = ChangeLog()
    fixture.map.addObserver(log)
    try fixture.map.longPress(at: Point(x: 10, y: 20))
    try fixture.map.doubleTap(at: Point(x: 30, y: 40))
    try fixture.map.settle()
    let overlay = try fixture.map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 1000)))
    try overlay.update { $0.zIndex = 2 }
    try fixture.map.remove(overlay)
    try fixture.map.addPointOfInterest(PointOfInterest(placeID: "p", name: "P", location: Places.sydney))
    fixture.map.isMyLocationEnabled = true
    fixture.map.deviceLocation = Places.melbourne
    try fixture.map.setPadding(EdgeInsets(top: 10, left: 0, bottom: 0, right: 0))
    try fixture.map.setViewSize(Size(width: 300, height: 300))
    #expect(
      log.withoutFrames == [
        "input(long_press 10.0,20.0)", "input(double_tap 30.0,40.0)", "idle", "overlays", "overlays", "overlays",
        "places", "places", "places", "view", "view",
      ])
  }

  @Test func aDragIsToldWhereTheFingerLands() throws {
    let fixture = try MapFixture()
    var options = MarkerOptions(position: Places.melbourne, id: "pin")
    options.draggable = true
    let pin = try fixture.map.addMarker(options)
    try fixture.quiet()
    let log = ChangeLog()
    fixture.map.addObserver(log)
    let finger = try #require(fixture.map.iconCenter(of: pin))
    try fixture.map.drag(pin, to: Places.sydney, duration: 0.1)
    try fixture.map.settle()
    #expect(log.lines.first == "input(drag \(finger.x),\(finger.y))")
    #expect(log.lines.dropFirst().allSatisfy { $0 == "moved(pin)" })
  }

  @Test func observingLeavesTheTraceAsItWas() throws {
    func run(observed: Bool) throws -> [TraceRecord] {
      let fixture = try MapFixture()
      let log = ChangeLog()
      if observed { fixture.map.addObserver(log) }
      let sydney = try fixture.marker("sydney", at: Places.sydney, title: "Sydney")
      try fixture.map.tap(sydney)
      try fixture.map.settle()
      try fixture.map.animate(.change(CameraChange(target: Places.melbourne, zoom: 6)), duration: 1)
      try fixture.map.settle()
      try fixture.map.tap(at: Point(x: 20, y: 20))
      try fixture.map.settle()
      #expect(log.lines.isEmpty != observed)
      return fixture.map.trace.records
    }
    #expect(try run(observed: true) == run(observed: false))
  }

  @Test func observersAreHeldWeaklyAndCanBeRemoved() throws {
    let fixture = try MapFixture()
    var log: ChangeLog? = ChangeLog()
    fixture.map.addObserver(log!)
    fixture.map.addObserver(log!)
    try fixture.marker("a", at: Places.melbourne)
    #expect(log?.lines == ["added(a)"], "added twice, told once")
    let kept = ChangeLog()
    fixture.map.addObserver(kept)
    fixture.map.removeObserver(kept)
    log = nil
    try fixture.marker("b", at: Places.sydney)
    #expect(kept.lines.isEmpty)
  }
}
