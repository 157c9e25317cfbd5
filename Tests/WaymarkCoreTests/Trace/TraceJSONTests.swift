import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct TraceJSONTests {
  @Test func recordsFollowTheContractOrderAndRounding() {
    var record = TraceRecord(time: 1.0 / 3, event: .callback(.didTapMarker))
    record.marker = "melbourne"
    record.result = .bool(false)
    record.answerer = .null
    #expect(
      TraceJSON.line(record)
        == #"{"t":0.333333,"event":"did_tap_marker","marker":"melbourne","result":false,"plugin":null}"#)
    var camera = TraceRecord(time: 2, event: .callback(.didChangeCameraPosition))
    camera.camera = CameraPosition(target: Places.melbourne, zoom: 8, bearing: 50.0000001, tilt: 30)
    #expect(
      TraceJSON.line(camera)
        == #"{"t":2,"event":"did_change_camera_position","camera":{"lat":-37.81969,"lng":144.966085,"zoom":8,"bearing":50,"tilt":30}}"#
    )
    var log = TraceRecord(time: 0, event: .note)
    log.message = "quote \" backslash \\ newline \n tab \t bell \u{7}"
    #expect(
      TraceJSON.line(log) == #"{"t":0,"event":"note","message":"quote \" backslash \\ newline \n tab \t bell \u0007"}"#)
  }

  @Test func everyCallbackIsTracedOnceInOrderWithAttribution() throws {
    // docs/trace-format.md: every delegate callback the map makes appears once, with or without a delegate.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let m = try map.addMarker(MarkerOptions(position: Places.sydney, id: "m", title: "M"))
    try map.tap(m)
    try map.settle()
    let events = map.trace.records.map(\.event.rawValue).filter { $0 != "did_change_camera_position" }
    #expect(
      events == [
        "did_tap_marker", "marker_info_window", "marker_info_contents", "info_window_shown", "will_move",
        "did_start_tile_rendering", "idle_at_camera_position", "did_finish_tile_rendering", "snapshot_ready",
      ], "the camera is already on the marker: its centring reports one frame and is idle before the tiles load (R23)")
    let tap = try #require(map.trace.records.first)
    #expect(tap.answerer == .null && tap.result == .bool(false))
    #expect(map.trace.records[3].extra == [TraceField("kind", .string("default"))])
  }

  @Test func theSameInputGivesTheSameTraceByteForByte() throws {
    func run() throws -> String {
      let fixture = try MapFixture(Places.melbourne, zoom: 4)
      let sydney = try fixture.marker("sydney", at: Places.sydney, title: "Sydney")
      fixture.delegate.tapMarker = { map, marker in
        try? map.animate(
          .setCamera(CameraPosition(target: marker.position, zoom: 8, bearing: 50, tilt: 60)), duration: 3)
        return false
      }
      try fixture.map.tap(sydney)
      try fixture.map.pinch(zoomBy: 1)
      try fixture.map.settle()
      return fixture.map.trace.records.map(TraceJSON.line).joined(separator: "\n")
    }
    let first = try run()
    #expect(first.count > 1000)
    #expect(try run() == first)
  }
}
