import Foundation
import WaymarkCore

/// A trace record as Foundation's encoder writes it: the same keys, order and values as a
/// line of `--trace json` (numbers rounded to six decimals).
struct EncodedRecord: Encodable {
  let record: TraceRecord

  func encode(to encoder: Encoder) throws {
    try EncodedValue(.object(record.fields)).encode(to: encoder)
  }
}

/// A trace value as JSON through Foundation's encoder.
struct EncodedValue: Encodable {
  let value: TraceValue

  init(_ value: TraceValue) { self.value = value }

  /// Keys of trace objects, in their order.
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: Encoder) throws {
    switch value {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let flag):
      var container = encoder.singleValueContainer()
      try container.encode(flag)
    case .number(let number):
      var container = encoder.singleValueContainer()
      if let rounded = EncodedValue.rounded(number) { try container.encode(rounded) } else { try container.encodeNil() }
    case .string(let text):
      var container = encoder.singleValueContainer()
      try container.encode(text)
    case .list(let items):
      var container = encoder.unkeyedContainer()
      for item in items { try container.encode(EncodedValue(item)) }
    case .object(let fields):
      var container = encoder.container(keyedBy: Key.self)
      for field in fields { try container.encode(EncodedValue(field.value), forKey: Key(stringValue: field.key)) }
    }
  }

  /// The number as the JSON trace prints it (six decimals), nil when not finite (null).
  static func rounded(_ number: Double) -> Double? {
    number.isFinite ? Double(formatNumber(number, decimals: 6)) : nil
  }
}
