import Foundation

/// busted's `gtest` output: Google Test's bracketed lines, a file at a time as its results
/// arrive (waymark runs files, not cases, in parallel), then the counts and the cases that did
/// not pass, listed.
extension TestOutput {
  /// `[==========] Running tests from scanned files.` and the global setup line.
  static func gtestBeginning(colour: Bool) -> String {
    tag("[==========]", "32", colour) + " Running tests from scanned files.\n" + tag("[----------]", "32", colour)
      + " Global test environment setup.\n"
  }

  /// A file's lines: where it starts, each case run and how it ended (with its failure's
  /// message), and its count and time.
  static func gtestFile(_ result: TestFileResult, _ entries: [Entry], colour: Bool) -> String {
    let file = TestReports.safe(result.file)
    var text = tag("[----------]", "32", colour) + " Running tests from \(file)\n"
    for entry in entries {
      let name = fullName(entry)
      text += tag("[ RUN      ]", "32", colour) + " \(name)\n"
      let (word, code) = ending(of: entry.status)
      text += tag(word, code, colour) + " \(name) (\(milliseconds(entry.seconds)) ms)\n"
      if entry.status == .fail || entry.status == .error { text += (entry.message ?? "Nil error") + "\n" }
    }
    let tests = entries.count == 1 ? "test" : "tests"
    return text + tag("[----------]", "32", colour)
      + " \(entries.count) \(tests) from \(file) (\(milliseconds(result.seconds)) ms total)\n\n"
  }

  /// The teardown line, the counts, and the pending, failed and erring cases listed.
  static func gtestEnding(_ results: [TestFileResult], _ entries: [Entry], seconds: Double, colour: Bool) -> String {
    func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
    let passed = entries.filter { $0.status == .pass }.count
    var text = tag("[----------]", "32", colour) + " Global test environment teardown.\n"
    text +=
      tag("[==========]", "32", colour)
      + " \(plural(entries.count, "test", "tests")) from \(plural(results.count, "test file", "test files")) ran."
      + " (\(milliseconds(seconds)) ms total)\n"
    text += tag("[  PASSED  ]", "32", colour) + " \(plural(passed, "test", "tests")).\n"
    // Each list: its status, bracketed word, colour, noun and the word before the noun in
    // the footer (` 1 FAILED TEST`, ` 2 ERRORS`).
    let lists: [(TestFileResult.Status, String, String, String, String)] = [
      (.skip, "[ SKIPPED  ]", "33", "test", "SKIPPED "), (.fail, "[  FAILED  ]", "31", "test", "FAILED "),
      (.error, "[  ERROR   ]", "35", "error", ""),
    ]
    var footers = ""
    for (status, word, code, noun, label) in lists {
      let listed = entries.filter { $0.status == status }
      guard !listed.isEmpty else { continue }
      text += tag(word, code, colour) + " \(plural(listed.count, noun, noun + "s")), listed below:\n"
      for entry in listed { text += tag(word, code, colour) + " \(fullName(entry))\n" }
      let nouns = listed.count == 1 ? noun.uppercased() : noun.uppercased() + "S"
      footers += " \(listed.count) \(label)\(nouns)\n"
    }
    if !footers.isEmpty { text += "\n" + footers }
    return text + TestReports.summary(results) + "\n"
  }

  /// `file @ line: full name` (a file that is its own case: its path).
  private static func fullName(_ entry: Entry) -> String {
    let name = TestReports.safe(entry.name)
    return entry.line > 0 ? "\(TestReports.safe(entry.file)) @ \(entry.line): \(name)" : name
  }

  /// The bracketed word that ends a case of `status`, and its colour.
  private static func ending(of status: TestFileResult.Status) -> (String, String) {
    switch status {
    case .pass: ("[       OK ]", "32")
    case .skip: ("[ SKIPPED  ]", "33")
    case .fail: ("[  FAILED  ]", "31")
    case .error: ("[  ERROR   ]", "35")
    }
  }

  /// `word` in the colour `code` when colour is on.
  private static func tag(_ word: String, _ code: String, _ colour: Bool) -> String {
    colour ? "\u{1B}[\(code)m\(word)\u{1B}[0m" : word
  }

  /// Seconds as milliseconds with two decimals, as busted prints them.
  private static func milliseconds(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }
}
