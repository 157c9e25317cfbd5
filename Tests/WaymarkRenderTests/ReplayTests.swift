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

  @Test func aSceneIsKeyframesEventsAndTheTablesTheyReferTo() throws {
    let (map, recording) = try recordedRun()
    let scene = try #require(recording.scenes.first)
    #expect(recording.scenes.count == 1 && scene.traceRange == 0..<map.trace.records.count)
    expectClose(scene.duration, map.clock.now)
    let object = try json(scene.json)
    let events = try #require(object["events"] as? [[Any]])
    let ops = events.compactMap { $0[1] as? String }
    for op in ["a", "t", "s", "c", "i", "m", "u", "o", "r"] { #expect(ops.contains(op), "\(op)") }
    #expect(ops.firstIndex(of: "t")! < ops.firstIndex(of: "s")!, "the touch comes before what it caused")
    let times = events.compactMap { $0[0] as? Double }
    #expect(times == times.sorted(), "on virtual time")
    let keyframes = try #require(object["keyframes"] as? [[String: Any]])
    #expect(keyframes.first?["at"] as? Int == 0)
    let windows = try #require(object["windows"] as? [[String: Any]])
    #expect(windows.first?["text"] as? String == "Melbourne" && windows.first?["kind"] as? String == "default")
    #expect((windows.first?["body"] as? String)?.contains("<text") == true)
    // The last position event of the dragged marker is where the drag left it.
    let last = try #require(events.last { ($0[1] as? String) == "m" && ($0[2] as? Int) == 1 })
    expectClose(try #require(last[3] as? Double), Places.brisbane.latitude, tolerance: 1e-9)
    expectClose(try #require(last[4] as? Double), Places.brisbane.longitude, tolerance: 1e-9)
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
    let scene = try json(try #require(recorder.recording.scenes.first).json)
    let keyframes = try #require(scene["keyframes"] as? [[String: Any]])
    let events = try #require(scene["events"] as? [[Any]])
    #expect(keyframes.count > 2)
    let ats = keyframes.compactMap { $0["at"] as? Int }
    #expect(ats == ats.sorted() && ats.last! < events.count)
    #expect((keyframes.first?["markers"] as? [Any])?.isEmpty == true, "the scene starts empty")
    #expect(keyframes.dropFirst().allSatisfy { ($0["markers"] as? [Any])?.count == 50 })
    let keyframeBytes = try JSONSerialization.data(withJSONObject: keyframes).count
    let eventBytes = try JSONSerialization.data(withJSONObject: events).count
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
    let scene = try json(try #require(recorder.recording.scenes.first).json)
    let events = try #require(scene["events"] as? [[Any]])
    let end = try #require(scene["end"] as? Double)
    let lastIdle = try #require(events.lastIndex { ($0[1] as? String) == "i" })
    let closing = try #require(events.lastIndex { ($0[1] as? String) == "s" })
    #expect(lastIdle < closing && events[closing][3] as? Int == -1, "the window closes after the last idle")
    #expect(events[closing][0] as? Double == end, "at the scene's end")
  }

  @Test func thePageIsOneFileThatLoadsNothing() throws {
    let (map, recording) = try recordedRun()
    var records = map.trace.records
    var hostile = TraceRecord(time: 1, event: .log)
    hostile.message = "</script><script>alert(1)</script><!-- \u{2028}"
    records.append(hostile)
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
    #expect((data["records"] as? [[String: Any]])?.last?["message"] as? String == hostile.message)
    #expect((data["scenes"] as? [[String: Any]])?.first?["trace"] as? [Int] == [0, map.trace.records.count])
    #expect(data["land"] as? String == NaturalEarthLand.encodedRings.filter { $0 != "\n" })
  }
}
