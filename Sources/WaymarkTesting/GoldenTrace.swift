import Foundation
import WaymarkCore

/// A golden trace for a test: the JSON Lines a map's run must reproduce byte for byte, kept
/// in a file next to the tests. The same mechanism as `waymark test --golden`: a mismatch is
/// thrown with a readable diff of text-trace lines; `WAYMARK_RECORD=1` (or `update: true`)
/// writes the file instead.
///
/// ```swift
/// @Test func theTourReplays() throws {
///   let map = try MapFixture().map
///   ... drive the map ...
///   try GoldenTrace(path: "Tests/Golden/tour.jsonl").check(map.trace.records)
/// }
/// ```
///
/// The file's records are the core's events; a trace that holds records of another module
/// names them (`GoldenTrace(path: ..., moduleRecords: TraceEvent.scriptingRecords)` for a map
/// with a plugin host), and any other event in the file is an error naming its line.
public struct GoldenTrace: Sendable {
  /// The golden file.
  public let path: String

  /// The runtime records of other modules the file may hold, besides the core's events.
  public let moduleRecords: [TraceEvent]

  /// The golden trace kept at `path`, which may hold `moduleRecords` besides the core's events.
  public init(path: String, moduleRecords: [TraceEvent] = []) {
    self.path = path
    self.moduleRecords = moduleRecords
  }

  /// The golden trace named `name` (`name.jsonl`) in the folder of the source file `file`
  /// (pass `#filePath`), inside its `subfolder`, which may hold `moduleRecords` besides the
  /// core's events.
  public init(_ name: String, besideSource file: String, subfolder: String = "Golden", moduleRecords: [TraceEvent] = [])
  {
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(subfolder)
    path = folder.appendingPathComponent(name + ".jsonl").path
    self.moduleRecords = moduleRecords
  }

  /// Whether this process records golden traces instead of checking them
  /// (`WAYMARK_RECORD=1`).
  public static var isRecording: Bool { ProcessInfo.processInfo.environment["WAYMARK_RECORD"] == "1" }

  /// Throws ``GoldenTraceMismatch`` unless `records` are the golden trace, byte for byte;
  /// writes them as the golden trace instead when `update` (``isRecording`` by default).
  public func check(_ records: [TraceRecord], update: Bool = GoldenTrace.isRecording) throws(GoldenTraceMismatch) {
    switch GoldenTraceFile.check(records, at: path, update: update, events: TraceEvent.coreEvents + moduleRecords) {
    case .matches, .written: return
    case .missing:
      throw GoldenTraceMismatch(path: path, lines: ["no golden trace (run with WAYMARK_RECORD=1 to write it)"])
    case .unusable(let reason): throw GoldenTraceMismatch(path: path, lines: [reason])
    case .differs(let lines): throw GoldenTraceMismatch(path: path, lines: lines)
    }
  }
}

/// A run that did not reproduce its golden trace: where, and how it differs, as text-trace
/// lines (`-` only in the golden trace, `+` only in this run).
public struct GoldenTraceMismatch: Error, CustomStringConvertible, Sendable {
  /// The golden file.
  public let path: String
  /// A summary line naming the first record that differs, that record on both sides with
  /// the records around it (camera and drag frames folded, as in the text trace), then how
  /// many more records differ.
  public let lines: [String]

  /// The path, then the lines.
  public var description: String { ([path + ": the trace differs"] + lines).joined(separator: "\n") }
}
