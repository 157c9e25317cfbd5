import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

/// WaymarkTesting's golden traces: written on request, matched byte for byte, and a mismatch
/// reads as a diff of text-trace lines.
@Suite struct GoldenTraceTests {
  private func run(_ veto: Bool) throws -> [TraceRecord] {
    let f = try MapFixture()
    let sydney = try f.marker("sydney", at: Places.sydney)
    f.delegate.tapMarker = { _, _ in veto }
    try f.map.tap(.marker(sydney))
    try f.map.settle()
    return f.map.trace.records
  }

  @Test func writtenThenMatchedThenAReadableDiff() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let golden = GoldenTrace(path: folder.appendingPathComponent("tap.jsonl").path)
    #expect(throws: GoldenTraceMismatch.self) { try golden.check(try run(true), update: false) }
    try golden.check(try run(true), update: true)
    try golden.check(try run(true), update: false)
    let other = try run(false)
    do {
      try golden.check(other, update: false)
      Issue.record("a different run must not match")
    } catch {
      let text = error.description
      #expect(text.hasPrefix(golden.path + ": the trace differs\n"))
      #expect(text.contains("\n-    0.000  did_tap_marker               sydney       result=true\n"), "\(text)")
      #expect(text.contains("\n+    0.000  did_tap_marker               sydney       result=false\n"), "\(text)")
    }
  }

  @Test func aMissingGoldenSaysHowToWriteIt() throws {
    let golden = GoldenTrace("no-such-trace", besideSource: #filePath)
    #expect(golden.path.hasSuffix("Trace/Golden/no-such-trace.jsonl"))
    do {
      try golden.check([], update: false)
      Issue.record("a missing golden must not match")
    } catch {
      #expect(error.lines == ["no golden trace (run with WAYMARK_RECORD=1 to write it)"])
    }
  }
}
