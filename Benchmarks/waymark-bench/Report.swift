// Output: a human-readable table, or one JSON object per line. Numbers are printed with
// %.6g (JSON: null when not finite), so the same figures always print the same way.

import Foundation
import WaymarkCore

/// Prints figures as a table (default) or as JSON lines (`--json`).
struct Report {
  /// Whether to print JSON lines instead of a table.
  let json: Bool

  /// The header: on stdout above the table, on stderr in JSON mode (stdout holds only JSON).
  func header(_ lines: [String]) {
    let text = (["Waymark benchmarks"] + lines).joined(separator: "\n") + "\n"
    if json { printError(text) } else { print(text) }
  }

  /// Prints the figures of one benchmark as soon as it has finished.
  func figures(_ figures: [Figure]) {
    if json {
      for figure in figures { print(jsonLine(figure)) }
    } else {
      print(table(figures))
    }
  }

  /// One JSON object: the fields (name, value, unit, baseline, baseline_value,
  /// ratio, goal, met) and extras (ratio_meaning, runs, min, max).
  func jsonLine(_ figure: Figure) -> String {
    let fields: [(String, String)] = [
      ("name", jsonString(figure.name)),
      ("value", jsonNumber(figure.value)),
      ("unit", jsonString(figure.unit)),
      ("baseline", jsonString(figure.baseline)),
      ("baseline_value", jsonNumber(figure.baselineValue)),
      ("ratio", jsonNumber(figure.ratio)),
      ("ratio_meaning", jsonString(figure.ratioMeaning)),
      ("goal", jsonString(figure.goal.text)),
      ("met", figure.met ? "true" : "false"),
      ("runs", String(figure.samples.count)),
      ("min", jsonNumber(figure.samples.min() ?? .nan)),
      ("max", jsonNumber(figure.samples.max() ?? .nan)),
    ]
    return "{" + fields.map { "\(jsonString($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
  }

  /// A table of figures: value, spread over the runs, baseline, ratio and goal; then what
  /// each baseline and ratio is.
  func table(_ figures: [Figure]) -> String {
    let head = ["name", "value", "unit", "runs min..max", "baseline", "ratio", "met", "goal"]
    let rows = figures.map { figure in
      [
        figure.name, format(figure.value), figure.unit,
        "\(format(figure.samples.min() ?? .nan))..\(format(figure.samples.max() ?? .nan))",
        format(figure.baselineValue), format(figure.ratio), figure.met ? "yes" : "NO",
        figure.goal.text,
      ]
    }
    let widths = head.indices.map { column in ([head] + rows).map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
        .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    var lines = [line(head)] + rows.map(line)
    for figure in figures {
      lines.append(
        "  \(figure.name): baseline = \(figure.baseline); ratio = \(figure.ratioMeaning)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// A number with %.6g, or "nan"/"inf" as C prints them.
func format(_ value: Double) -> String { String(format: "%.6g", value) }

/// A JSON number with %.6g; null when not finite (JSON has no NaN or infinity).
func jsonNumber(_ value: Double) -> String { value.isFinite ? format(value) : "null" }

/// A JSON string literal, escaped the way the trace escapes strings (one escaper).
func jsonString(_ text: String) -> String {
  var out = ""
  TraceJSON.writeString(text, to: &out)
  return out
}

/// Writes `text` to stderr as is.
func printError(_ text: String) {
  FileHandle.standardError.write(Data(text.utf8))
}
