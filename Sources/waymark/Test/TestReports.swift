import Foundation
import WaymarkCore
import WaymarkScripting

/// How `waymark test` shows results: a line per file for people (or TAP), a JUnit XML file
/// for CI systems, and the closing line `N passed, N failed`.
enum TestReports {
  /// The closing line: `N passed, N failed`, then `, N skipped` when a case was pending.
  /// It counts cases, a file that declares none as one.
  static func summary(_ results: [TestFileResult]) -> String {
    let counted = results.flatMap(\.counted)
    let passed = counted.filter { $0 == .pass }.count
    let skipped = counted.filter { $0 == .skip }.count
    return "\(passed) passed, \(counted.count - passed - skipped) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
  }

  /// The line before the closing one when some files or cases had no golden trace under
  /// `--golden DIR` and were compared with nothing; nil when every one had its golden.
  static func goldensMissing(_ results: [TestFileResult], in folder: String) -> String? {
    let count = results.reduce(0) { $0 + $1.goldensMissing.count }
    guard count > 0 else { return nil }
    return "\(count) with no golden trace in \(safe(folder)), compared with nothing "
      + "(--update writes them, --golden-required fails them)"
  }

  /// `0.041 s`.
  static func time(_ seconds: Double) -> String { String(format: "%.3f s", seconds) }

  /// Text from a test file (its name, a case's name, a message) made safe for a terminal
  /// and for TAP: control characters escaped as the text trace escapes them, so no file
  /// name can move the cursor, retitle the window or start a line of its own.
  static func safe(_ text: String) -> String { TraceText.escaped(text) }

  // MARK: People

  /// A file's line (`pass   tests/a_test.lua  0.041 s`) and its failures, indented, each
  /// with the trace just before it; then a line per case (`  fail   cart checkout  0.002 s`)
  /// with its failures. `width` aligns the times; `colour` colours the status words.
  static func lines(_ result: TestFileResult, width: Int, colour: Bool = false) -> [String] {
    guard !result.isFilteredOut || !result.cases.isEmpty else { return [] }
    let path = safe(result.file)
    var lines = ["\(status(result.status, colour)) \(pad(path, width))  \(time(result.seconds))"]
    lines += details(result.failures, written: result.goldenWritten, skipped: result.goldenSkipped, indent: "")
    let caseWidth = min(60, result.cases.map { safe($0.name).count }.max() ?? 0)
    for found in result.cases {
      let time = found.status == .skip ? "pending" : time(found.seconds)
      lines.append("  \(status(found.status, colour)) \(pad(safe(found.name), caseWidth))  \(time)")
      lines += details(found.failures, written: found.goldenWritten, skipped: found.goldenSkipped, indent: "  ")
    }
    return lines
  }

  private static func details(_ failures: [TestFileResult.Failure], written: String?, skipped: String?, indent: String)
    -> [String]
  {
    var lines: [String] = []
    if let written { lines.append(indent + "       wrote \(safe(written))") }
    if let skipped {
      lines.append(indent + "       did not write \(safe(skipped)): it fails (--update writes passing ones)")
    }
    for failure in failures {
      lines.append(indent + "       \(safe(failure.message))")
      lines += failure.excerpt.map { indent + "         │ \(safe($0))" }
    }
    return lines
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
  }

  /// The status word, padded; in colour (green, red, yellow) when asked.
  private static func status(_ status: TestFileResult.Status, _ colour: Bool) -> String {
    let word = pad(status.rawValue, 6)
    guard colour else { return word }
    let code =
      switch status {
      case .pass: "32"
      case .fail: "31"
      case .error: "1;31"
      case .skip: "33"
      }
    return "\u{1B}[\(code)m\(status.rawValue)\u{1B}[0m"
      + String(repeating: " ", count: word.count - status.rawValue.count)
  }

  /// Whether the status words are coloured: as `waymark run` colours its trace, only when
  /// standard output is a terminal, never with `NO_COLOR` set (no-color.org) or a dumb one.
  static var usesColour: Bool {
    TraceText.wantsColors(isTerminal: isatty(STDOUT_FILENO) != 0, environment: ProcessInfo.processInfo.environment)
  }

  /// `--list`: a line per case, `file:line: full name` as busted lists them (a file that
  /// declares none: its path alone).
  static func list(_ result: TestFileResult) -> [String] {
    if result.status == .error {
      return result.failures.map { "error  \(safe(result.file)): \(safe($0.message))" }
    }
    guard !result.cases.isEmpty else { return result.isFilteredOut ? [] : [safe(result.file)] }
    return result.cases.map { "\(safe(result.file)):\($0.line): \(safe($0.name))" }
  }

  // MARK: Profile

  /// The handlers' calls across every file, slowest total first: a table for people.
  static func profile(_ results: [TestFileResult]) -> [String] {
    var rows: [String: PluginProfile.Row] = [:]
    for row in results.flatMap({ $0.profile ?? [] }) {
      rows[row.plugin + "\u{0}" + row.handler, default: PluginProfile.Row(plugin: row.plugin, handler: row.handler)]
        .add(row)
    }
    let sorted = rows.values.sorted { ($1.total, $0.plugin, $0.handler) < ($0.total, $1.plugin, $1.handler) }
    let width = max(6, sorted.map { $0.plugin.count }.max() ?? 0)
    let handlerWidth = max(7, sorted.map { $0.handler.count }.max() ?? 0)
    func pad(_ text: String, _ count: Int) -> String { text.padding(toLength: count, withPad: " ", startingAt: 0) }
    func ms(_ seconds: Double) -> String {
      let text = String(format: "%.3f ms", seconds * 1000)
      return String(repeating: " ", count: max(0, 12 - text.count)) + text
    }
    var lines = [
      "profile: \(pad("plugin", width))  \(pad("handler", handlerWidth))     calls         total       slowest"
    ]
    for row in sorted {
      let calls = String(row.calls)
      lines.append(
        "         \(pad(row.plugin, width))  \(pad(row.handler, handlerWidth))  "
          + String(repeating: " ", count: max(0, 8 - calls.count)) + calls + "  \(ms(row.total))  \(ms(row.slowest))")
    }
    if sorted.isEmpty { lines.append("         no plugin handler was called") }
    return lines
  }

  // MARK: TAP

  /// The TAP (version 13) header; the plan (`1..N`) comes last, once the cases are known.
  static let tapHeader = "TAP version 13"

  /// The test points of a file, numbered from `number`: the file's own when it declares no
  /// case or stopped with an error, then one per case (`# SKIP` for pending), each failure
  /// with a YAML block.
  static func tap(_ result: TestFileResult, from number: Int) -> [String] {
    var lines: [String] = []
    let file = tapText(result.file)
    if result.isOwnCase {
      lines += tapPoint(
        number + lines.count, file, status: result.status, seconds: result.seconds, failures: result.failures)
    }
    var next = number + (lines.isEmpty ? 0 : 1)
    for found in result.cases {
      lines += tapPoint(
        next, "\(file): \(tapText(found.name))", status: found.status, seconds: found.seconds, failures: found.failures)
      next += 1
    }
    return lines
  }

  /// TAP's description: escaped (``safe(_:)``), `#` (which starts a directive) as `\#`.
  private static func tapText(_ text: String) -> String { safe(text).replacingOccurrences(of: "#", with: "\\#") }

  private static func tapPoint(
    _ number: Int, _ description: String, status: TestFileResult.Status, seconds: Double,
    failures: [TestFileResult.Failure]
  ) -> [String] {
    if status == .skip { return ["ok \(number) - \(description) # SKIP pending"] }
    var lines = ["\(status == .pass ? "ok" : "not ok") \(number) - \(description)"]
    guard status != .pass else { return lines }
    lines += ["  ---", "  severity: \(status == .error ? "error" : "fail")"]
    lines.append("  duration_ms: \(Int((seconds * 1000).rounded()))")
    if let first = failures.first { lines.append("  message: \(yamlString(first.message))") }
    lines.append("  failures:")
    for failure in failures {
      lines.append("    - kind: \(failure.kind.rawValue)")
      lines.append("      message: \(yamlString(failure.message))")
      if !failure.excerpt.isEmpty {
        lines.append("      trace: |")
        lines += failure.excerpt.map { "        " + safe(String($0.drop { $0 == " " })) }
      }
    }
    lines.append("  ...")
    return lines
  }

  /// A YAML double-quoted scalar: a JSON string literal is one.
  private static func yamlString(_ text: String) -> String {
    var out = ""
    TraceJSON.writeString(text, to: &out)
    return out
  }

  // MARK: JUnit

  /// A JUnit XML report as CI systems read it (Jenkins, GitLab, GitHub actions): one
  /// `<testsuite>`, a `<testcase>` per case (its full name as name, its file as classname)
  /// or per file that declares none (its path as name, its folder as classname), with its
  /// time; a `<failure>` (or `<error>`) holding the first message as `message` and every
  /// failure with its trace excerpt as text; `<skipped/>` for a pending case.
  static func junit(_ results: [TestFileResult]) -> String {
    var cases: [String] = []
    var counts = (tests: 0, failures: 0, errors: 0, skipped: 0)
    var total = 0.0
    func add(
      name: String, classname: String, file: String, status: TestFileResult.Status, seconds: Double,
      failures: [TestFileResult.Failure]
    ) {
      counts.tests += 1
      total += seconds
      let attributes =
        "name=\"\(escape(name))\" classname=\"\(escape(classname))\" file=\"\(escape(file))\" time=\"\(Self.seconds(seconds))\""
      switch status {
      case .skip:
        counts.skipped += 1
        cases += ["    <testcase \(attributes)>", "      <skipped message=\"pending\"/>", "    </testcase>"]
        return
      case .pass: break
      case .fail: counts.failures += 1
      case .error: counts.errors += 1
      }
      guard status != .pass, let first = failures.first else {
        cases.append("    <testcase \(attributes)/>")
        return
      }
      let element = status == .error ? "error" : "failure"
      let more = failures.count > 1 ? " (and \(failures.count - 1) more)" : ""
      var body: [String] = []
      for failure in failures {
        body.append(failure.message)
        body += failure.excerpt.map { "    \($0)" }
      }
      cases.append("    <testcase \(attributes)>")
      cases.append(
        "      <\(element) message=\"\(escape(first.message + more))\" type=\"\(escape(first.kind.rawValue))\">"
          + escape(body.joined(separator: "\n")) + "</\(element)>")
      cases.append("    </testcase>")
    }
    for result in results {
      if result.isOwnCase {
        let folder = URL(fileURLWithPath: result.file).deletingLastPathComponent().relativePath
        add(
          name: result.file, classname: folder, file: result.file, status: result.status, seconds: result.seconds,
          failures: result.failures)
      }
      for found in result.cases {
        add(
          name: found.name, classname: result.file, file: result.file, status: found.status, seconds: found.seconds,
          failures: found.failures)
      }
    }
    let attributes =
      "tests=\"\(counts.tests)\" failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\""
    return
      ([
        #"<?xml version="1.0" encoding="UTF-8"?>"#,
        "<testsuites name=\"waymark test\" \(attributes) time=\"\(seconds(total))\">",
        "  <testsuite name=\"waymark test\" \(attributes) time=\"\(seconds(total))\">",
      ] + cases + ["  </testsuite>", "</testsuites>"]).joined(separator: "\n") + "\n"
  }

  private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

  /// Text for XML attributes and content: markup escaped, characters XML 1.0 cannot hold
  /// replaced by U+FFFD.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += "&#10;"
      case "\t": out += "&#9;"
      case "\r": out += "&#13;"
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
