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

  @Test func traceLinesReadBackToTheSameBytes() throws {
    var record = TraceRecord(time: 3.5, event: .callback(.didTapMarker))
    record.marker = "melbourne"
    record.result = .bool(false)
    record.answerer = .null
    record.extra = [TraceField("handler", .string("x")), TraceField("list", .list([.number(1.5), .null]))]
    var camera = TraceRecord(time: 0.016667, event: .callback(.didChangeCameraPosition))
    camera.camera = CameraPosition(target: Places.melbourne, zoom: 8, bearing: 50, tilt: 30)
    var log = TraceRecord(time: 0, event: .note)
    log.message = "quote \" backslash \\ newline \n tab \t bell \u{7} snow ☃ \u{1F600}"
    let text = [record, camera, log].map(TraceJSON.line).joined(separator: "\n") + "\n"
    let read = try TraceJSONReader.records(from: text, events: TraceEvent.testEvents)
    #expect(read.map(TraceJSON.line).joined(separator: "\n") + "\n" == text)
    #expect(read[1].camera?.zoom == 8)
  }

  @Test func aBrokenLineIsNamedByItsNumber() {
    #expect(throws: TraceJSONReader.Failure.self) {
      try TraceJSONReader.records(from: "{\"t\":0,\"event\":\"warning\"}\n{\"t\":")
    }
    do {
      _ = try TraceJSONReader.records(from: "{\"t\":0,\"event\":\"warning\"}\n\n[1]\n")
      Issue.record("a list is not a record")
    } catch {
      #expect(error.line == 3)
    }
  }

  @Test func differencesShowTextTraceLinesOfBothSides() throws {
    var tap = TraceRecord(time: 0.25, event: .callback(.didTapMarker))
    tap.marker = "sydney"
    tap.result = .bool(true)
    var move = TraceRecord(time: 0.25, event: .callback(.willMove))
    move.gesture = false
    var moved = move
    moved.gesture = true
    #expect(TraceDiff.differences(expected: [tap, move], actual: [tap, move]) == nil)
    let lines = try #require(TraceDiff.differences(expected: [tap, move], actual: [tap, moved]))
    #expect(
      lines == [
        "first difference at record 2 (t=0.250) of 2 expected, 2 in this run", "  " + TraceText.describe(tap),
        "- " + TraceText.describe(move), "+ " + TraceText.describe(moved), "  no other record differs",
      ])
  }

  /// R33 (a run replays its trace byte for byte): after a long camera animation, the first
  /// record that differs comes first, its frames folded as `--trace text` folds them, then
  /// the count of the other differing records.
  @Test func differencesAfterACameraAnimationFoldTheFramesAndCountTheRest() throws {
    var tap = TraceRecord(time: 0, event: .callback(.didTapMarker))
    tap.marker = "sydney"
    tap.result = .bool(false)
    let frames = (1...180).map { frame -> TraceRecord in
      var record = TraceRecord(time: Double(frame) / 60, event: .callback(.didChangeCameraPosition))
      record.camera = CameraPosition(target: Places.sydney, zoom: 8 + Double(frame) / 100)
      return record
    }
    var tapped = TraceRecord(time: 3.017, event: .callback(.didTapMarker))
    tapped.marker = "sydney"
    tapped.result = .bool(true)
    var untapped = tapped
    untapped.result = .bool(false)
    var move = TraceRecord(time: 3.017, event: .callback(.willMove))
    move.gesture = false
    let logs = (1...4).map { number -> TraceRecord in
      var log = TraceRecord(time: 4, event: .note)
      log.message = "log \(number)"
      return log
    }
    let expected = [tap] + frames + [tapped, move, logs[0]]
    let actual = [tap] + frames + [untapped, move, logs[1], logs[2], logs[3]]
    let lines = try #require(TraceDiff.differences(expected: expected, actual: actual))
    let folded = TraceText().lines(frames)[1]
    #expect(folded.contains("×180 frames"))
    #expect(
      lines == [
        "first difference at record 182 (t=3.017) of 184 expected, 186 in this run",
        "  " + TraceText.describe(tap), "  " + folded,
        "- " + TraceText.describe(tapped), "+ " + TraceText.describe(untapped), "  " + TraceText.describe(move),
        "  … and 4 more records differ (1 expected, 3 not expected)",
      ])
  }

  @Test func aLongRunOfDifferencesIsCutAndCountedInTheRest() throws {
    let logs = (0..<30).map { number -> TraceRecord in
      var log = TraceRecord(time: Double(number), event: .note)
      log.message = "log \(number)"
      return log
    }
    let lines = try #require(TraceDiff.differences(expected: [], actual: logs, limit: 5))
    #expect(lines.first == "first difference at record 1 (t=0.000) of 0 expected, 30 in this run")
    #expect(lines.dropFirst().dropLast() == ArraySlice(logs.prefix(5).map { "+ " + TraceText.describe($0) }))
    #expect(lines.last == "  … and 25 more records differ (0 expected, 25 not expected)")
  }

  @Test func recordsDifferingBeyondTheTextAreComparedAsJSON() throws {
    var a = TraceRecord(time: 1, event: .callback(.didChangeCameraPosition))
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
