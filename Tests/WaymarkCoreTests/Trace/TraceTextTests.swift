import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct TraceTextTests {
  @Test func linesAreAlignedAndFramesFolded() throws {
    // The camera starts a little east of the marker, so that centring on it moves (R10.4).
    let start = Coordinate(latitude: Places.melbourne.latitude, longitude: Places.melbourne.longitude + 1)
    let map = try MapView(camera: CameraPosition(target: start, zoom: 4))
    let m = try map.addMarker(MarkerOptions(position: Places.melbourne, id: "melbourne"))
    try map.tap(m)
    try map.settle()
    let lines = TraceText().lines(map.trace.records)
    #expect(lines[0] == "       t  event                        subject      details")
    #expect(lines[1] == "   0.000  did_tap_marker               melbourne    result=false")
    let frames = try #require(lines.first { $0.contains("did_change_camera_position") })
    // One line for the move; the tiles that finished loading at 0.25 s (R31) follow it.
    #expect(frames.hasSuffix("×18 frames   0.017…0.300 → (-37.81969, 144.966085) zoom 4 bearing 0 tilt 0"))
    let index = try #require(lines.firstIndex(of: frames))
    #expect(lines[index + 1] == "   0.250  did_finish_tile_rendering")
    #expect(lines[index + 2].contains("idle_at_camera_position"))
    let all = TraceText(showsEveryFrame: true).lines(map.trace.records)
    #expect(all.filter { $0.contains("did_change_camera_position") }.count == 18)
  }

  /// What a plugin prints and names its markers cannot forge trace lines or reach the
  /// terminal as escape sequences: control characters are escaped as the JSON trace does.
  @Test func messagesAndIdsAreEscapedOnOneLine() throws {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 4))
    let m = try map.addMarker(MarkerOptions(position: Places.melbourne, id: "a\nb\u{1b}[2J"))
    map.note("line one\n   9.999  did_tap_marker   forged\u{1b}]0;title\u{7}\\ \u{202e}", source: "p\r")
    try map.tap(m)
    let lines = TraceText().lines(map.trace.records)
    #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") && !$0.unicodeScalars.contains("\u{1b}") })
    let log = try #require(lines.first { $0.contains("  note  ") })
    #expect(log.hasSuffix("plugin=p\\r line one\\n   9.999  did_tap_marker   forged\\u001b]0;title\\u0007\\\\ \\u202e"))
    #expect(lines.contains { $0.contains("did_tap_marker               a\\nb\\u001b[2J") })
    #expect(TraceText.escaped("plain café") == "plain café")
  }

  /// Strings inside a record's structured fields are escaped too: JSON leaves C1 controls
  /// (U+009B is a terminal's CSI), line separators and bidi overrides raw (found by
  /// `scripts/fuzz.sh trace`).
  @Test func stringsInsideStructuredFieldsAreEscapedOnOneLine() {
    var record = TraceRecord(time: 1, event: .warning)
    record.extra = [
      TraceField("nested", .object([TraceField("k", .list([.string("\u{9B}2J\u{85}\u{2028}\u{202E}\\")]))]))
    ]
    let line = TraceText.describe(record)
    #expect(line.hasSuffix(#"nested={"k":["\u009b2J\u0085\u2028\u202e\\"]}"#), "\(line)")
  }

  @Test func dragFramesFoldLikeCameraFrames() throws {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 4))
    var options = MarkerOptions(position: Places.melbourne, id: "pin")
    options.draggable = true
    let pin = try map.addMarker(options)
    try map.drag(pin, to: Coordinate(latitude: -37.9, longitude: 145.1), duration: 1)
    try map.settle()
    let lines = TraceText().lines(map.trace.records)
    let drags = lines.filter { $0.contains("did_drag_marker") }
    #expect(drags.count == 1, "\(lines)")
    #expect(
      drags.first?.range(of: #"did_drag_marker +pin +×[0-9]+ frames [0-9.]+…1\.000$"#, options: .regularExpression)
        != nil)
    let every = TraceText(showsEveryFrame: true).lines(map.trace.records)
    #expect(
      every.filter { $0.contains("did_drag_marker") }.count
        == map.trace.records.filter { $0.event == .callback(.didDragMarker) }.count)
  }

  @Test func longIdsKeepTheColumns() throws {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 4))
    let long = try map.addMarker(MarkerOptions(position: Places.melbourne, id: "melbourne-central-station"))
    try map.tap(long)
    let short = try map.addMarker(MarkerOptions(position: Places.sydney, id: "s"))
    try map.tap(short)
    let huge = try map.addMarker(MarkerOptions(position: Places.sydney, id: String(repeating: "x", count: 60)))
    try map.tap(huge)
    let lines = TraceText().lines(map.trace.records)
    let taps = lines.filter { $0.contains("did_tap_marker") }
    #expect(taps.count == 3)
    // The details start in the same column on every line, the header's included.
    let column = try #require(lines[0].range(of: "details")).lowerBound.utf16Offset(in: lines[0])
    for tap in taps {
      let start = try #require(tap.range(of: "result=")).lowerBound.utf16Offset(in: tap)
      #expect(start == column, "\(tap)")
    }
    #expect(taps[2].contains(String(repeating: "x", count: 39) + "… result="))
  }

  @Test func colorsOnlyOnATerminalAndNeverWithNoColor() throws {
    #expect(TraceText.wantsColors(isTerminal: true, environment: [:]))
    #expect(!TraceText.wantsColors(isTerminal: false, environment: [:]))
    #expect(!TraceText.wantsColors(isTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(TraceText.wantsColors(isTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(!TraceText.wantsColors(isTerminal: true, environment: ["TERM": "dumb"]))
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 4))
    map.note("hello", source: "p")
    let plain = TraceText().lines(map.trace.records)
    let colored = TraceText(colors: true).lines(map.trace.records)
    #expect(!plain.joined().contains("\u{1B}"))
    let log = try #require(colored.first { $0.contains("hello") })
    #expect(log.hasPrefix("\u{1B}[36m") && log.hasSuffix("\u{1B}[0m"))
    #expect(colored[0] == plain[0])
  }

  @Test(
    "Colours by kind of record: failures red, warnings yellow, info windows green, folded runs dim, callbacks plain")
  func colorsByKindOfRecord() {
    let camera = CameraPosition(target: Places.melbourne, zoom: 4)
    var frames = [TraceRecord(time: 0.1, event: .callback(.didChangeCameraPosition))]
    frames.append(TraceRecord(time: 0.2, event: .callback(.didChangeCameraPosition)))
    for index in frames.indices { frames[index].camera = camera }
    let records =
      [.checkFailed, .checkFailed, .warning, .infoWindowShown, .partLoaded, .callback(.didTapMarker)].map {
        TraceRecord(time: 0, event: $0)
      } + frames
    let lines = TraceText(colors: true).lines(records).dropFirst().map { String($0.prefix(5)) }
    #expect(lines == ["\u{1B}[31m", "\u{1B}[31m", "\u{1B}[33m", "\u{1B}[32m", "\u{1B}[2m ", "   0.", "\u{1B}[2m "])
  }
}
