/// The JSON Lines form of the trace (docs/trace-format.md): one object per record, keys in the
/// contract's order, numbers rounded to six decimals, the same bytes on every run.
public enum TraceJSON {
  /// One record as a JSON object on one line (no newline).
  public static func line(_ record: TraceRecord) -> String {
    var out = ""
    write(.object(record.fields), to: &out)
    return out
  }

  /// A value as JSON.
  package static func write(_ value: TraceValue, to out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .number(let number): out += number.isFinite ? formatNumber(number, decimals: 6) : "null"
    case .string(let text): writeString(text, to: &out)
    case .list(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        write(item, to: &out)
      }
      out += "]"
    case .object(let fields):
      out += "{"
      for (index, field) in fields.enumerated() {
        if index > 0 { out += "," }
        writeString(field.key, to: &out)
        out += ":"
        write(field.value, to: &out)
      }
      out += "}"
    }
  }

  /// A string as a JSON string literal.
  package static func writeString(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
