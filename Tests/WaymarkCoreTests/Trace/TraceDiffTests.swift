import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct TraceDiffTests {
  @Test func lineDiffKeepsCommonLinesAndMarksChanges() {
    let old = ["a", "b", "c", "d", "e"], new = ["a", "b", "x", "d", "e", "f"]
    let changes = LineDiff.changes(from: old, to: new)
    #expect(changes == [.same("a"), .same("b"), .removed("c"), .added("x"), .same("d"), .same("e"), .added("f")])
    #expect(LineDiff.render(changes, context: 0) == ["- c", "+ x", "  …", "+ f"])
    #expect(LineDiff.changes(from: old, to: old).allSatisfy { !$0.isChange })
  }

  @Test func renderShowsOnlyTheFirstChangesWhenLimited() {
    let old = (0..<10).map { "line \($0)" }
    let new = old.map { $0 + "!" }
    let lines = LineDiff.render(LineDiff.changes(from: old, to: new), context: 0, limit: 3)
    #expect(lines.filter { $0.hasPrefix("- ") || $0.hasPrefix("+ ") }.count == 3)
    #expect(lines.last == "  … and 17 more changed line(s)")
  }

  @Test func traceLinesReadBackToTheSameBytes() throws {
    var record = TraceRecord(time: 3.5, event: "did_tap_marker")
    record.marker = "melbourne"
    record.result = .bool(false)
    record.plugin = .null
    record.extra = [TraceField("handler", .string("x")), TraceField("list", .list([.number(1.5), .null]))]
    var camera = TraceRecord(time: 0.016667, event: "did_change_camera_position")
    camera.camera = CameraPosition(target: Places.melbourne, zoom: 8, bearing: 50, tilt: 30)
    var log = TraceRecord(time: 0, event: "log")
    log.message = "quote \" backslash \\ newline \n tab \t bell \u{7} snow ☃ \u{1F600}"
    let text = [record, camera, log].map(TraceJSON.line).joined(separator: "\n") + "\n"
    let read = try TraceJSONReader.records(from: text)
    #expect(read.map(TraceJSON.line).joined(separator: "\n") + "\n" == text)
    #expect(read[1].camera?.zoom == 8)
  }

  @Test func everyGoldenTraceOfTheDemosReadsBackToItsBytes() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("WaymarkCLITests/Golden")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
    #expect(names.count >= 11)
    for name in names {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      let records = try TraceJSONReader.records(from: text)
      #expect(records.map { TraceJSON.line($0) + "\n" }.joined() == text, "\(name)")
    }
  }

  @Test func aBrokenLineIsNamedByItsNumber() {
    #expect(throws: TraceJSONReader.Failure.self) {
      try TraceJSONReader.records(from: "{\"t\":0,\"event\":\"log\"}\n{\"t\":")
    }
    do {
      _ = try TraceJSONReader.records(from: "{\"t\":0,\"event\":\"log\"}\n\n[1]\n")
      Issue.record("a list is not a record")
    } catch {
      #expect(error.line == 3)
    }
  }

  @Test func differencesShowTextTraceLinesOfBothSides() throws {
    var tap = TraceRecord(time: 0.25, event: "did_tap_marker")
    tap.marker = "sydney"
    tap.result = .bool(true)
    var move = TraceRecord(time: 0.25, event: "will_move")
    move.gesture = false
    var moved = move
    moved.gesture = true
    #expect(TraceDiff.differences(expected: [tap, move], actual: [tap, move]) == nil)
    let lines = try #require(TraceDiff.differences(expected: [tap, move], actual: [tap, moved]))
    #expect(lines[0] == "1 record(s) only in the expected trace, 1 only in this run (expected 2 records, got 2)")
    #expect(lines.contains("  " + TraceText.describe(tap)))
    #expect(lines.contains("- " + TraceText.describe(move)))
    #expect(lines.contains("+ " + TraceText.describe(moved)))
  }

  @Test func recordsDifferingBeyondTheTextAreComparedAsJSON() throws {
    var a = TraceRecord(time: 1, event: "did_change_camera_position")
    a.camera = CameraPosition(target: Places.melbourne, zoom: 8.00001)
    var b = a
    b.camera?.zoom = 8.00002
    // The text trace prints the zoom with four decimals, the same line for both; the JSON
    // keeps six and differs.
    #expect(TraceText.describe(a) == TraceText.describe(b))
    let lines = try #require(TraceDiff.differences(expected: [a], actual: [b]))
    #expect(lines.contains("- " + TraceJSON.line(a)))
    #expect(lines.contains("+ " + TraceJSON.line(b)))
  }
}
