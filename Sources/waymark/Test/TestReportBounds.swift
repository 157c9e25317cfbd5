import Foundation

/// What a worker of `waymark test` may report of one test file, so that no file can make the
/// parent hold more than a few tens of MiB however it fails (docs/testing.md, "Isolation"):
/// long texts are cut, failures past a count are counted on one line, and a report still
/// larger than ``reportBytes`` is refused by both sides with a message saying so.
enum TestReportBounds {
  /// Bytes of a failure's message or a case's name kept; the rest is counted.
  static let textBytes = 4096
  /// Bytes of each line of a failure's trace excerpt kept.
  static let lineBytes = 1024
  /// Failures shown for the file and for each case; the others are counted on one line.
  static let failuresShown = 20
  /// Failures shown in the whole file, across its cases; past it each case shows a count.
  static let failuresInFile = 500
  /// The most bytes of one file's report (JSON), coverage and all.
  static let reportBytes = 32 << 20

  /// The result with every text cut to its bound and every list of failures to its count.
  static func bounded(_ result: TestFileResult) -> TestFileResult {
    var result = result
    var budget = failuresInFile
    result.failures = bounded(result.failures, budget: &budget)
    for index in result.cases.indices {
      result.cases[index].name = cut(result.cases[index].name, to: textBytes)
      result.cases[index].failures = bounded(result.cases[index].failures, budget: &budget)
    }
    return result
  }

  /// At most ``failuresShown`` failures (and no more than `budget` has left), each cut, then
  /// one line counting the others.
  private static func bounded(_ failures: [TestFileResult.Failure], budget: inout Int) -> [TestFileResult.Failure] {
    let shown = min(failures.count, failuresShown, budget)
    budget -= shown
    var kept = failures.prefix(shown).map { failure in
      TestFileResult.Failure(
        kind: failure.kind, message: cut(failure.message, to: textBytes),
        excerpt: failure.excerpt.map { cut($0, to: lineBytes) })
    }
    if failures.count > shown {
      let more = failures.count - shown
      kept.append(
        .init(
          kind: failures[shown].kind,
          message: "... \(more) more failure\(more == 1 ? "" : "s") (a case shows \(failuresShown), a file "
            + "\(failuresInFile) in all)"))
    }
    return kept
  }

  /// `text` cut to at most `limit` bytes of UTF-8 (at a character's start), ending
  /// `… (N more bytes)` when cut, as long messages are cut elsewhere.
  static func cut(_ text: String, to limit: Int) -> String {
    let bytes = text.utf8.count
    guard bytes > limit else { return text }
    var end = text.utf8.index(text.utf8.startIndex, offsetBy: limit)
    while end > text.startIndex, end.samePosition(in: text.unicodeScalars) == nil {
      end = text.utf8.index(before: end)
    }
    let kept = text[..<end]
    return kept + "… (\(bytes - kept.utf8.count) more bytes)"
  }

  /// The report of `result` as a worker sends it: bounded, encoded; a file whose bounded
  /// report is still larger than ``reportBytes`` (thousands of cases with long names, huge
  /// coverage) is reported as an error saying so instead.
  static func encoded(_ result: TestFileResult) -> [UInt8] {
    let encoder = JSONEncoder()
    let data = try? encoder.encode(bounded(result))
    if let data, data.count <= reportBytes { return Array(data) }
    let size = data?.count ?? 0
    let refusal = TestFileResult(
      file: result.file, status: .error,
      failures: [.init(kind: .error, message: tooLarge(size > 0 ? "\(size >> 20) MiB" : "more"))])
    return (try? encoder.encode(refusal)).map { Array($0) } ?? []
  }

  /// Why a report is refused: `size` of it (`45 MiB`) is more than a file may report.
  static func tooLarge(_ size: String) -> String {
    "its report took \(size), more than the \(reportBytes >> 20) MiB a test file may report "
      + "(its cases, failures, coverage); split the file"
  }
}
