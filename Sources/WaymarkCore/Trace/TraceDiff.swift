/// How a trace differs from an expected one (a golden trace), shown the way the text trace
/// (``TraceText``) shows records: a summary naming the first record that differs, that
/// record on both sides with the lines of the records around it (runs of camera and drag frames
/// folded into one line, as in `--trace text`), then how many more records differ. The
/// records are aligned through ``LineDiff``.
///
/// ```swift
/// if let lines = TraceDiff.differences(expected: golden, actual: map.trace.records) {
///   print(lines.joined(separator: "\n"))
/// }
/// ```
///
/// Prints like this (`-` only in the expected trace, `+` only in the actual one):
/// ```
/// first difference at record 182 (t=3.017) of 190 expected, 195 in this run
///     0.000  did_tap_marker               sydney       result=false plugin=tour
///     0.017  did_change_camera_position   ×180 frames  0.017…3.000 → (-37.81969, 144.966085) zoom 8 …
/// -   3.017  did_tap_marker               sydney       result=true plugin=tour
/// +   3.017  did_tap_marker               sydney       result=false plugin=tour
///     3.017  will_move                                 gesture=false
///   … and 12 more records differ (3 expected, 9 not expected)
/// ```
package enum TraceDiff {
  /// Nil when both traces have the same JSON bytes; otherwise the summary line, the first
  /// run of differing records of each side (at most `limit` lines each, frames folded) with
  /// `context` lines of the records before it and one after, and the count of the other
  /// differing records: those only in the expected trace ("expected") and those only in the
  /// actual one ("not expected"). When records differ only beyond what the text trace shows
  /// (a zoom's fifth decimal, say), their JSON lines are compared and shown instead.
  package static func differences(
    expected: [TraceRecord], actual: [TraceRecord], context: Int = 3, limit: Int = 10
  ) -> [String]? {
    let expectedJSON = expected.map(TraceJSON.line), actualJSON = actual.map(TraceJSON.line)
    guard expectedJSON != actualJSON else { return nil }
    // Both sides are read back from their JSON first, so that numbers are rounded the same
    // way (six decimals) before the text trace rounds them again.
    let old = zip(expected, expectedJSON).map(readBack), new = zip(actual, actualJSON).map(readBack)
    let width = TraceText.subjectWidth(of: old + new)
    var render: ([TraceRecord]) -> [[String]] = { TraceText().groups($0, width: width) }
    let describe = { (record: TraceRecord) in TraceText.describe(record, width: TraceText.widestSubject) }
    var changes = LineDiff.changes(from: old.map(describe), to: new.map(describe))
    if !changes.contains(where: \.isChange) {
      changes = LineDiff.changes(from: expectedJSON, to: actualJSON)
      render = { $0.map { [TraceJSON.line($0)] } }
    }
    // The first run of changes: where it starts on each side, and its records.
    let start = changes.firstIndex(where: \.isChange)!
    let end = changes[start...].firstIndex { !$0.isChange } ?? changes.endIndex
    var removed: [TraceRecord] = [], added: [TraceRecord] = []
    for change in changes[start..<end] {
      if case .removed = change {
        removed.append(old[start + removed.count])
      } else {
        added.append(new[start + added.count])
      }
    }
    let after = start + removed.count
    // All the records around, so that a move's frames fold into one line whatever its length.
    let before = lastLines(render(Array(old[..<start])), context)
    let next = render(Array(old[after...])).joined().prefix(1)
    let (removedLines, removedShown) = shown(removed, limit: limit, render: render)
    let (addedLines, addedShown) = shown(added, limit: limit, render: render)
    let first = removed.first ?? added.first!
    var lines = [
      "first difference at record \(start + 1) (t=\(TraceText.time(first.time))) of \(expected.count) expected,"
        + " \(actual.count) in this run"
    ]
    lines += before.map { "  " + $0 } + removedLines.map { "- " + $0 } + addedLines.map { "+ " + $0 }
    lines += next.map { "  " + $0 }
    let moreExpected = changes.count { if case .removed = $0 { true } else { false } } - removedShown
    let moreActual = changes.count { if case .added = $0 { true } else { false } } - addedShown
    let more = moreExpected + moreActual
    lines.append(
      more == 0
        ? "  no other record differs"
        : "  … and \(more) more \(more == 1 ? "record differs" : "records differ")"
          + " (\(moreExpected) expected, \(moreActual) not expected)")
    return lines
  }

  /// A record as its JSON line reads back, or the record itself if it does not.
  private static func readBack(_ record: TraceRecord, _ line: String) -> TraceRecord {
    guard let value = try? TraceJSONReader.value(of: line),
      let read = try? TraceJSONReader.record(from: value, events: [record.event.rawValue: record.event])
    else {
      return record
    }
    return read
  }

  /// The last `count` lines of `groups`; when they start inside a folded run, its folded
  /// line comes first, then `…`, so that the move they belong to is named.
  private static func lastLines(_ groups: [[String]], _ count: Int) -> [String] {
    var lines: [String] = []
    for group in groups.reversed() {
      let room = count - lines.count
      guard room > 0 else { break }
      lines = (group.count <= room ? group : [group[0], "…"] + group.suffix(room - 1)) + lines
    }
    return lines
  }

  /// The lines of the longest prefix of `records` that renders in at most `limit` lines,
  /// and how many records that prefix holds.
  private static func shown(_ records: [TraceRecord], limit: Int, render: ([TraceRecord]) -> [[String]]) -> (
    [String], Int
  ) {
    // More records never make fewer lines, so the longest prefix is found by bisection.
    var low = 0, high = records.count
    while low < high {
      let middle = (low + high + 1) / 2
      if render(Array(records.prefix(middle))).joined().count <= limit { low = middle } else { high = middle - 1 }
    }
    return (Array(render(Array(records.prefix(low))).joined()), low)
  }
}
