import Foundation
import WaymarkCore
import WaymarkScripting

/// How `waymark test` shows results: a line per file for people (or TAP), a JUnit XML file
/// for CI systems, and the closing line `N passed, N failed`.
enum TestReports {
  /// The closing line.
  static func summary(_ results: [TestFileResult]) -> String {
    let passed = results.filter { $0.status == .pass }.count
    return "\(passed) passed, \(results.count - passed) failed"
  }

  /// `0.041 s`.
  static func time(_ seconds: Double) -> String { String(format: "%.3f s", seconds) }

  // MARK: People

  /// A file's line (`pass   tests/a_test.lua  0.041 s`) and its failures, indented, each
  /// with the trace just before it. `width` aligns the times.
  static func lines(_ result: TestFileResult, width: Int) -> [String] {
    let status = result.status.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
    let path = result.file.padding(toLength: max(width, result.file.count), withPad: " ", startingAt: 0)
    var lines = ["\(status) \(path)  \(time(result.seconds))"]
    if let written = result.goldenWritten { lines.append("       wrote \(written)") }
    for failure in result.failures {
      lines.append("       \(failure.message)")
      lines += failure.excerpt.map { "         │ \($0)" }
    }
    return lines
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

  /// The TAP (version 13) header: version and plan.
  static func tapHeader(count: Int) -> [String] { ["TAP version 13", "1..\(count)"] }

  /// One TAP test line, with a YAML block for a failure or error.
  static func tap(_ result: TestFileResult, number: Int) -> [String] {
    let ok = result.status == .pass ? "ok" : "not ok"
    var lines = ["\(ok) \(number) - \(result.file)"]
    guard result.status != .pass else { return lines }
    lines += ["  ---", "  severity: \(result.status == .error ? "error" : "fail")"]
    lines.append("  duration_ms: \(Int((result.seconds * 1000).rounded()))")
    if let first = result.failures.first { lines.append("  message: \(yamlString(first.message))") }
    lines.append("  failures:")
    for failure in result.failures {
      lines.append("    - kind: \(failure.kind)")
      lines.append("      message: \(yamlString(failure.message))")
      if !failure.excerpt.isEmpty {
        lines.append("      trace: |")
        lines += failure.excerpt.map { "        " + $0.drop { $0 == " " } }
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
  /// `<testsuite>`, a `<testcase>` per file (its path as name, its folder as classname,
  /// its time), a `<failure>` (or `<error>`) holding the first message as `message` and
  /// every failure with its trace excerpt as text.
  static func junit(_ results: [TestFileResult]) -> String {
    let failures = results.filter { $0.status == .fail }.count
    let errors = results.filter { $0.status == .error }.count
    let total = results.reduce(0) { $0 + $1.seconds }
    let counts = "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\""
    var out = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      "<testsuites name=\"waymark test\" \(counts) time=\"\(seconds(total))\">",
      "  <testsuite name=\"waymark test\" \(counts) time=\"\(seconds(total))\">",
    ]
    for result in results {
      let folder = URL(fileURLWithPath: result.file).deletingLastPathComponent().relativePath
      let attributes =
        "name=\"\(escape(result.file))\" classname=\"\(escape(folder))\" file=\"\(escape(result.file))\" time=\"\(seconds(result.seconds))\""
      guard result.status != .pass, let first = result.failures.first else {
        out.append("    <testcase \(attributes)/>")
        continue
      }
      let element = result.status == .error ? "error" : "failure"
      let more = result.failures.count > 1 ? " (and \(result.failures.count - 1) more)" : ""
      var body: [String] = []
      for failure in result.failures {
        body.append(failure.message)
        body += failure.excerpt.map { "    \($0)" }
      }
      out.append("    <testcase \(attributes)>")
      out.append(
        "      <\(element) message=\"\(escape(first.message + more))\" type=\"\(escape(first.kind))\">"
          + escape(body.joined(separator: "\n")) + "</\(element)>")
      out.append("    </testcase>")
    }
    out += ["  </testsuite>", "</testsuites>"]
    return out.joined(separator: "\n") + "\n"
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
