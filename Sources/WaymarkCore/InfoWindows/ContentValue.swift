/// A generic, language-neutral value tree from which info-window content is decoded.
///
/// The scripting layer builds it from a Lua table (the core knows nothing of Lua);
/// Swift callers can write it with literals:
/// `[["text": "Melbourne", "style": "title"], ["image": "Icon", "width": 40, "height": 40]]`.
///
/// A table keeps its keys in the order given, so decoding errors are reported in a
/// stable order. An empty list and an empty table mean the same thing (Lua cannot
/// tell `{}` apart), see ``InfoWindowContent/init(decoding:limits:)``.
package indirect enum ContentValue: Sendable {
  /// A string.
  case string(String)
  /// A floating-point number (a Lua float).
  case number(Double)
  /// A whole number (a Lua integer).
  case integer(Int)
  /// A boolean.
  case bool(Bool)
  /// A sequence, first element first (a Lua table with keys 1...n).
  case list([ContentValue])
  /// A table with string keys, in a stable order chosen by the producer.
  case table([(key: String, value: ContentValue)])
  /// The absence of a value (Lua `nil`).
  case `nil`
  /// A value known only when the code runs: what `waymark check` puts where a content table
  /// in the source holds an expression (`text = marker.title`). Decoding checks everything
  /// around it and takes it for a valid value of whatever is expected there.
  case unknown
}

extension ContentValue: Equatable {
  /// Structural equality; tables compare their keys and values in order.
  package static func == (lhs: ContentValue, rhs: ContentValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.list(let a), .list(let b)): return a == b
    case (.table(let a), .table(let b)):
      return a.count == b.count
        && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    case (.nil, .nil), (.unknown, .unknown): return true
    default: return false
    }
  }
}

extension ContentValue {
  /// The value as a Double if it is a number of either kind, else nil.
  var numericValue: Double? {
    switch self {
    case .number(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  /// The value as written in an error message: strings quoted (long ones cut),
  /// whole numbers without a fraction, `nan`/`inf`, lists and tables by kind.
  var errorDescription: String {
    switch self {
    case .string(let text):
      let limit = 40
      let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
      var escaped = ""
      for character in shown {
        switch character {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        case "\t": escaped += "\\t"
        default: escaped.append(character)
        }
      }
      return "\"\(escaped)\""
    case .number(let value): return Self.format(value)
    case .integer(let value): return String(value)
    case .bool(let value): return value ? "true" : "false"
    case .list(let items): return items.isEmpty ? "an empty table" : "a list"
    case .table(let fields): return fields.isEmpty ? "an empty table" : "a table"
    case .nil: return "nil"
    case .unknown: return "a value"
    }
  }

  /// Formats a number the way a plugin author wrote it: `-3`, `2.5`, `nan`, `inf`.
  static func format(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    if let whole = wholeNumber(value) { return String(whole) }
    return String(value)
  }

  /// `value` as an Int if it is a whole number below 10^15 in magnitude, else nil.
  /// (Compares with a truncating conversion: WaymarkCore links no maths library.)
  static func wholeNumber(_ value: Double) -> Int? {
    guard value.isFinite, value.magnitude < 1e15 else { return nil }
    let truncated = Int(value)
    return Double(truncated) == value ? truncated : nil
  }

  /// True for an empty list or an empty table, which Lua cannot tell apart.
  var isEmptyContainer: Bool {
    switch self {
    case .list(let items): return items.isEmpty
    case .table(let fields): return fields.isEmpty
    default: return false
    }
  }
}

// MARK: - Literals

extension ContentValue: ExpressibleByStringLiteral {
  /// A string value.
  package init(stringLiteral value: String) { self = .string(value) }
}

extension ContentValue: ExpressibleByIntegerLiteral {
  /// A whole-number value.
  package init(integerLiteral value: Int) { self = .integer(value) }
}

extension ContentValue: ExpressibleByFloatLiteral {
  /// A floating-point value.
  package init(floatLiteral value: Double) { self = .number(value) }
}

extension ContentValue: ExpressibleByBooleanLiteral {
  /// A boolean value.
  package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ContentValue: ExpressibleByArrayLiteral {
  /// A list, first element first.
  package init(arrayLiteral elements: ContentValue...) { self = .list(elements) }
}

extension ContentValue: ExpressibleByDictionaryLiteral {
  /// A table whose keys keep the order written.
  package init(dictionaryLiteral elements: (String, ContentValue)...) {
    self = .table(elements.map { (key: $0.0, value: $0.1) })
  }
}

extension ContentValue: ExpressibleByNilLiteral {
  /// The nil value.
  package init(nilLiteral: ()) { self = .nil }
}
