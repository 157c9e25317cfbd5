import Foundation
import WaymarkCore

/// busted's outputs, `-o/--output NAME` (docs/testing.md, "What it prints"): the same
/// results in the forms busted prints them, so what reads busted's output reads these.
enum TestOutput: String, CaseIterable, Sendable {
  /// A character per case as files finish (`+` pass, `-` fail, `*` error, `.` pending), then
  /// the pending cases, failures and errors, then the closing line.
  case plainTerminal
  /// ``plainTerminal`` with busted's UTF-8 characters (coloured on a terminal).
  case utfTerminal
  /// busted's TAP: `ok N - name`, `not ok N - name` with `# file @ line` and `# Failure
  /// message:` lines, `ok N - # SKIP name`, and the plan last.
  case TAP
  /// One JSON object at the end: `successes`, `failures`, `errors`, `pendings`, `duration`.
  case json
  /// The JUnit XML report (``TestReports/junit(_:)``) on standard output.
  case junit
  /// Google Test's lines: `[ RUN      ]` and `[       OK ]` (or `[  FAILED  ]`, `[  ERROR   ]`,
  /// `[ SKIPPED  ]`) a case, a line per file, then the counts and the cases that did not pass.
  case gtest

  /// One case as busted's outputs see it.
  struct Entry {
    let file: String
    let name: String
    let line: Int
    let status: TestFileResult.Status
    /// Wall-clock seconds it took.
    let seconds: Double
    /// Its failures' messages, one after another, each line made safe for a terminal (a
    /// message's own line breaks stay, as luassert's "Passed in:" lines do in busted's).
    let message: String?
  }

  /// Every case of the results, in order (a file that is its own case: its path, line 0).
  static func entries(_ results: [TestFileResult]) -> [Entry] {
    results.flatMap { result -> [Entry] in
      let own =
        result.isOwnCase
        ? [
          Entry(
            file: result.file, name: result.file, line: 0, status: result.status, seconds: result.seconds,
            message: message(result.failures))
        ] : []
      return own
        + result.cases.map {
          Entry(
            file: result.file, name: $0.name, line: $0.line, status: $0.status, seconds: $0.seconds,
            message: message($0.failures))
        }
    }
  }

  private static func message(_ failures: [TestFileResult.Failure]) -> String? {
    guard !failures.isEmpty else { return nil }
    return failures.flatMap { $0.message.split(separator: "\n", omittingEmptySubsequences: false) }
      .map { TestReports.safe(String($0)) }.joined(separator: "\n")
  }

  /// What is printed before any file's results: gtest's opening lines.
  func beginning(colour: Bool) -> String {
    switch self {
    case .gtest: Self.gtestBeginning(colour: colour)
    case .plainTerminal, .utfTerminal, .TAP, .json, .junit: ""
    }
  }

  /// What is printed as a file's results arrive: a terminal output's characters, TAP's points.
  func progress(_ result: TestFileResult, from number: Int, colour: Bool) -> String {
    let entries = Self.entries([result])
    switch self {
    case .plainTerminal, .utfTerminal:
      return entries.map { character($0.status, colour: colour) }.joined()
    case .TAP:
      return entries.enumerated().map { offset, entry in tapPoint(entry, number: number + offset) }.joined()
    case .gtest: return Self.gtestFile(result, entries, colour: colour)
    case .json, .junit: return ""
    }
  }

  /// What is printed once every file has finished: the details and the closing line of the
  /// terminal outputs, TAP's plan, the JSON object, the JUnit report.
  func ending(_ results: [TestFileResult], seconds: Double, colour: Bool) -> String {
    let entries = Self.entries(results)
    let closing = TestReports.summary(results)
    switch self {
    case .plainTerminal, .utfTerminal:
      let arrow = self == .utfTerminal ? "→" : "->"
      var text = "\n" + statusLine(entries, seconds: seconds) + "\n"
      for (status, word) in [(TestFileResult.Status.skip, "Pending"), (.fail, "Failure"), (.error, "Error")] {
        for entry in entries where entry.status == status {
          let place = entry.line > 0 ? "\(entry.file) @ \(entry.line)" : entry.file
          text += "\n\(word) \(arrow) \(TestReports.safe(place))\n\(TestReports.safe(entry.name))\n"
          if let message = entry.message { text += message + "\n" }
        }
      }
      return text + "\n" + closing + "\n"
    case .TAP: return "1..\(entries.count)\n# \(closing)\n"
    case .json: return Self.json(entries, seconds: seconds) + "\n"
    case .junit: return TestReports.junit(results)
    case .gtest: return Self.gtestEnding(results, entries, seconds: seconds, colour: colour)
    }
  }

  private func character(_ status: TestFileResult.Status, colour: Bool) -> String {
    let (plain, utf, code) =
      switch status {
      case .pass: ("+", "●", "32")
      case .fail: ("-", "◼", "31")
      case .error: ("*", "✱", "35")
      case .skip: (".", "◌", "33")
      }
    guard self == .utfTerminal else { return plain }
    return colour ? "\u{1B}[\(code)m\(utf)\u{1B}[0m" : utf
  }

  /// busted's status line: `3 successes / 0 failures / 1 error / 1 pending : 0.12 seconds`.
  private func statusLine(_ entries: [Entry], seconds: Double) -> String {
    func count(_ status: TestFileResult.Status, _ one: String, _ many: String) -> String {
      let n = entries.filter { $0.status == status }.count
      return "\(n) \(n == 1 ? one : many)"
    }
    return count(.pass, "success", "successes") + " / " + count(.fail, "failure", "failures") + " / "
      + count(.error, "error", "errors") + " / " + count(.skip, "pending", "pending") + " : "
      + String(format: "%.6f", seconds) + " seconds"
  }

  private func tapPoint(_ entry: Entry, number: Int) -> String {
    let name = TestReports.safe(entry.name).replacingOccurrences(of: "#", with: "\\#")
    switch entry.status {
    case .pass: return "ok \(number) - \(name)\n"
    case .skip: return "ok \(number) - # SKIP \(name)\n"
    case .fail, .error:
      let place = entry.line > 0 ? "\(entry.file) @ \(entry.line)" : entry.file
      let message = (entry.message ?? "Nil error").replacingOccurrences(of: "\n", with: "\n# ")
      return "not ok \(number) - \(name)\n# \(TestReports.safe(place))\n# Failure message: \(message)\n"
    }
  }

  /// busted's JSON: each case as `{ name, message, trace = { short_src, currentline },
  /// element = { descriptor, trace } }`, keys sorted so the bytes are the same every run.
  private static func json(_ entries: [Entry], seconds: Double) -> String {
    func list(_ status: TestFileResult.Status) -> [[String: Any]] {
      entries.filter { $0.status == status }.map { entry in
        let trace: [String: Any] = ["short_src": entry.file, "currentline": entry.line]
        var object: [String: Any] = [
          "name": entry.name, "trace": trace,
          "element": ["descriptor": entry.line > 0 ? "it" : "file", "trace": trace] as [String: Any],
          "isError": status == .error,
        ]
        if let message = entry.message { object["message"] = message }
        return object
      }
    }
    let object: [String: Any] = [
      "successes": list(.pass), "failures": list(.fail), "errors": list(.error), "pendings": list(.skip),
      "duration": seconds,
    ]
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
