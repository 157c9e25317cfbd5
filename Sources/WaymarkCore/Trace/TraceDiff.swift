/// How a trace differs from an expected one (a golden trace), as readable lines of the text
/// trace (``TraceText``, every camera frame on its own line) through ``LineDiff``.
///
/// ```swift
/// if let lines = TraceDiff.differences(expected: golden, actual: map.trace.records) {
///   print(lines.joined(separator: "\n"))
/// }
/// ```
///
/// Prints like this (`-` only in the expected trace, `+` only in the actual one):
/// ```
/// 1 record(s) only in the expected trace, 1 only in this run (expected 12 records, got 12)
///     0.250  did_tap_marker               sydney       result=true plugin=tour
/// -   0.250  will_move                                 gesture=false
/// +   0.250  will_move                                 gesture=true
/// ```
package enum TraceDiff {
  /// Nil when both traces have the same JSON bytes; otherwise a summary line and the first
  /// `limit` changed lines with one line of context around each. When two records differ
  /// only beyond what the text trace shows (the sixth decimal of an extra field), their
  /// JSON lines are compared instead.
  package static func differences(expected: [TraceRecord], actual: [TraceRecord], limit: Int = 20) -> [String]? {
    let expectedJSON = expected.map(TraceJSON.line), actualJSON = actual.map(TraceJSON.line)
    guard expectedJSON != actualJSON else { return nil }
    // Both sides are read back from their JSON first, so that numbers are rounded the same
    // way (six decimals) before the text trace rounds them again.
    let expectedText = expectedJSON.map(describe), actualText = actualJSON.map(describe)
    var changes = LineDiff.changes(from: expectedText, to: actualText)
    if !changes.contains(where: \.isChange) { changes = LineDiff.changes(from: expectedJSON, to: actualJSON) }
    let removed = changes.filter { if case .removed = $0 { true } else { false } }.count
    let added = changes.filter { if case .added = $0 { true } else { false } }.count
    let summary =
      "\(removed) record(s) only in the expected trace, \(added) only in this run"
      + " (expected \(expected.count) records, got \(actual.count))"
    return [summary] + LineDiff.render(changes, context: 1, limit: limit)
  }

  /// The text-trace line of a JSON record line.
  private static func describe(_ line: String) -> String {
    guard let value = try? TraceJSONReader.value(of: line), let record = try? TraceJSONReader.record(from: value) else {
      return line
    }
    return TraceText.describe(record)
  }
}
