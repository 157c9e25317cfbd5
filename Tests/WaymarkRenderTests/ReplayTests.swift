import Foundation
import Testing
import WaymarkCore

@testable import WaymarkRender

@Suite struct ReplayTests {
  /// Drives a map through every kind of change while a recorder watches.
  func recordedRun() throws -> (map: MapView, recording: ReplayRecording) {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 5))
    let recorder = ReplayRecorder()
    recorder.begin(map, traceStart: 0)
    let melbourne = try map.addMarker(MarkerOptions(position: Places.melbourne, id: "melbourne", title: "Melbourne"))
    var options = MarkerOptions(position: Places.sydney, id: "sydney")
    options.draggable = true
    let sydney = try map.addMarker(options)
    try map.tap(melbourne)
    try map.settle()
    try map.animate(.change(CameraChange(target: Places.sydney, zoom: 7)), duration: 1)
    try map.settle()
    try map.drag(sydney, to: Places.brisbane, duration: 0.5)
    try map.settle()
    try melbourne.update { $0.title = "Melbourne, Victoria" }
    try map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 5000)))
    try map.remove(melbourne)
    recorder.end(traceEnd: map.trace.records.count)
    return (map, recorder.recording)
  }

  func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func aSceneIsKeyframesEventsAndTheLibraryTheyReferTo() throws {
    let (map, recording) = try recordedRun()
    let scene = try #require(recording.scenes.first)
    #expect(recording.scenes.count == 1 && scene.traceRange == 0..<map.trace.records.count)
    expectClose(scene.duration, map.clock.now)
    let timeline = scene.timeline
    #expect(timeline.version == Scene.currentVersion)
    let events = timeline.events
    #expect(events.contains { $0.marker?.id == "melbourne" } && events.contains { $0.touch != nil })
    #expect(events.contains { $0.selection != nil } && events.contains { $0.camera != nil })
    #expect(events.contains { $0.moment == .idle } && events.contains { $0.moved != nil })
    #expect(events.contains { $0.overlays != nil } && events.contains { $0.removed == 0 })
    #expect(events.contains { $0.marker?.n == 0 && $0.t > 0 }, "melbourne's change")
    let touch = try #require(events.firstIndex { $0.touch != nil })
    #expect(touch < events.firstIndex { $0.selection != nil }!, "the touch comes before what it caused")
    let times = events.map(\.t)
    #expect(times == times.sorted(), "on virtual time")
    #expect(timeline.keyframes.first?.at == 0)
    let window = try #require(timeline.library.windows.first)
    #expect(window.text == "Melbourne" && window.kind == "default" && window.body.contains("<text"))
    // The last position event of the dragged marker is where the drag left it.
    let last = try #require(events.last { $0.moved?.n == 1 }?.moved)
    expectClose(last.lat, Places.brisbane.latitude, tolerance: 1e-9)
    expectClose(last.lng, Places.brisbane.longitude, tolerance: 1e-9)
  }

  @Test func theJSONNamesEveryFieldAndReadsBackAsTheSameTimeline() throws {
    let (_, recording) = try recordedRun()
    let scene = try #require(recording.scenes.first)
    let object = try json(scene.json)
    #expect(object["version"] as? Int == Scene.currentVersion && object["title"] as? String == "map 1 (ios)")
    let keyframe = try #require((object["keyframes"] as? [[String: Any]])?.first?["state"] as? [String: Any])
    #expect(Set(keyframe.keys) == ["t", "camera", "view", "markers", "overlays", "places"], "nil fields are left out")
    let marker = try #require(
      (object["events"] as? [[String: Any]])?.lazy.compactMap { $0["marker"] as? [String: Any] }.first)
    #expect(
      Set(marker.keys) == ["n", "id", "lat", "lng", "sprite", "rotation", "ground", "opacity", "z", "order"])
    let sprite = try #require(((object["library"] as? [String: Any])?["sprites"] as? [[String: Any]])?.first)
    #expect(Set(sprite.keys) == ["art", "selectedArt", "offset", "box", "window"])
    let decoded = try JSONDecoder().decode(SceneTimeline.self, from: Data(scene.json.utf8))
    #expect(decoded == scene.timeline, "every number as Swift had it")
  }

  @Test func recordingLeavesTheTraceAsItWas() throws {
    func run(recorded: Bool) throws -> [TraceRecord] {
      let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 5))
      let recorder = ReplayRecorder()
      if recorded { recorder.begin(map, traceStart: 0) }
      let marker = try map.addMarker(MarkerOptions(position: Places.sydney, title: "Sydney"))
      try map.tap(marker)
      try map.settle()
      try map.tap(at: Point(x: 10, y: 10))
      try map.settle()
      return map.trace.records
    }
    #expect(try run(recorded: true) == run(recorded: false))
  }

  @Test func keyframesFollowWhenTheEventsOutweighThem() throws {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 5))
    let recorder = ReplayRecorder()
    recorder.begin(map, traceStart: 0)
    for index in 0..<50 {
      try map.addMarker(MarkerOptions(position: Coordinate(latitude: -37 - Double(index) * 0.01, longitude: 145)))
    }
    for round in 0..<20 {
      try map.animate(.change(CameraChange(zoom: 5 + Double(round % 3))), duration: 1)
      try map.settle()
    }
    recorder.end(traceEnd: 0)
    let timeline = try #require(recorder.recording.scenes.first).timeline
    let keyframes = timeline.keyframes
    #expect(keyframes.count > 2)
    let ats = keyframes.map(\.at)
    #expect(ats == ats.sorted() && ats.last! < timeline.events.count)
    #expect(keyframes.first?.state.markers.isEmpty == true, "the scene starts empty")
    #expect(keyframes.dropFirst().allSatisfy { $0.state.markers.count == 50 })
    let keyframeBytes = JSONWriter.json(keyframes).utf8.count
    let eventBytes = JSONWriter.json(timeline.events).utf8.count
    #expect(keyframeBytes < eventBytes, "keyframes are a fraction of the timeline")
  }

  /// The replay's last moment is the state at the end of the trace: a tap on the empty map that
  /// closes the window after the camera came to rest (docs/semantics.md R14) is recorded after
  /// that idle, at the scene's end, where the page's timeline takes every event
  /// (Tests/Browser/test_replay.py checks the page at each demo's end).
  @Test func aWindowClosedAtTheLastIdleIsClosedAtTheEnd() throws {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 5))
    let recorder = ReplayRecorder()
    recorder.begin(map, traceStart: 0)
    let melbourne = try map.addMarker(MarkerOptions(position: Places.melbourne, id: "melbourne", title: "Melbourne"))
    try map.tap(melbourne)
    try map.settle()
    try map.tap(at: Point(x: 30, y: 800))
    recorder.end(traceEnd: map.trace.records.count)
    let timeline = try #require(recorder.recording.scenes.first).timeline
    let events = timeline.events
    let lastIdle = try #require(events.lastIndex { $0.moment == .idle })
    let closing = try #require(events.lastIndex { $0.selection != nil })
    #expect(lastIdle < closing && events[closing].selection?.window == nil, "the window closes after the last idle")
    #expect(events[closing].t == timeline.end, "at the scene's end")
  }

  @Test func thePageIsOneFileThatLoadsNothing() throws {
    let (map, recording) = try recordedRun()
    var records = map.trace.records
    // Records of a module the page knows nothing of: a log line and a failure of their own.
    var hostile = TraceRecord(time: 1, event: TraceEvent(record: "log", tone: .log))
    hostile.message = "</script><script>alert(1)</script><!-- \u{2028}"
    records.append(hostile)
    records.append(TraceRecord(time: 1, event: TraceEvent(record: "check_failed", tone: .failure)))
    let html = ReplayPage.html(recording, records: records, title: "demo <&>")
    #expect(html.hasPrefix("<!doctype html>") && html.contains("<title>Waymark replay: demo &lt;&amp;&gt;</title>"))
    #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
    #expect(html.components(separatedBy: "</script>").count == 4, "three scripts, and no </script> in the data")
    for pattern in ["src=\"http", "href=\"http", "url(http", "@import", "fetch(", "XMLHttpRequest"] {
      #expect(!html.contains(pattern), "\(pattern)")
    }
    let start = try #require(html.range(of: "<script type=\"application/json\" id=\"waymark-replay-data\">"))
    let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    let data = try json(String(html[start.upperBound..<end.lowerBound]))
    #expect((data["records"] as? [[String: Any]])?.dropLast().last?["message"] as? String == hostile.message)
    #expect(data["failures"] as? [String] == ["check_failed"], "failures are shown red by their events' tone")
    let range = (data["scenes"] as? [[String: Any]])?.first?["records"] as? [String: Int]
    #expect(range == ["from": 0, "to": map.trace.records.count])
    #expect(data["land"] as? String == NaturalEarthLand.encodedRings.filter { $0 != "\n" })
  }
}
