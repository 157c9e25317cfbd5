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
public struct GoldenTrace: Sendable {
  /// The golden file.
  public let path: String

  /// The golden trace kept at `path`.
  public init(path: String) { self.path = path }

  /// The golden trace named `name` (`name.jsonl`) in the folder of the source file `file`
  /// (pass `#filePath`), inside its `subfolder`.
  public init(_ name: String, besideSource file: String, subfolder: String = "Golden") {
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(subfolder)
    path = folder.appendingPathComponent(name + ".jsonl").path
  }

  /// Whether this process records golden traces instead of checking them
  /// (`WAYMARK_RECORD=1`).
  public static var isRecording: Bool { ProcessInfo.processInfo.environment["WAYMARK_RECORD"] == "1" }

  /// Throws ``GoldenTraceMismatch`` unless `records` are the golden trace, byte for byte;
  /// writes them as the golden trace instead when `update` (``isRecording`` by default).
  public func check(_ records: [TraceRecord], update: Bool = GoldenTrace.isRecording) throws(GoldenTraceMismatch) {
    switch GoldenTraceFile.check(records, at: path, update: update) {
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
