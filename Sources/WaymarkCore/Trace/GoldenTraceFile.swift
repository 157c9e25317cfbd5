import Foundation

/// A golden trace on disk: the JSON Lines a run must reproduce byte for byte. The one
/// mechanism behind `waymark test --golden` and WaymarkTesting's `GoldenTrace`: compare a
/// run's records with the file (differences as ``TraceDiff`` lines), or write the file.
package enum GoldenTraceFile {
  /// What checking a run against a golden file found.
  package enum Outcome: Equatable {
    /// The run reproduced the file exactly.
    case matches
    /// The file was (re)written with the run's trace.
    case written
    /// There is no such file.
    case missing
    /// The file could not be written, or is not a JSON trace: why.
    case unusable(String)
    /// The run differs: ``TraceDiff``'s summary line, the first differing records, the count
    /// of the others.
    case differs([String])
  }

  /// Checks `records` against the golden file at `path`, or writes it when `update`.
  package static func check(_ records: [TraceRecord], at path: String, update: Bool) -> Outcome {
    if update {
      do {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(records.map { TraceJSON.line($0) + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return .written
      } catch {
        return .unusable("cannot write the golden trace: \(error.localizedDescription)")
      }
    }
    guard let data = FileManager.default.contents(atPath: path) else { return .missing }
    let expected: [TraceRecord]
    do {
      expected = try TraceJSONReader.records(from: String(decoding: data, as: UTF8.self))
    } catch {
      return .unusable("not a JSON trace: \(error)")
    }
    return TraceDiff.differences(expected: expected, actual: records).map(Outcome.differs) ?? .matches
  }
}
