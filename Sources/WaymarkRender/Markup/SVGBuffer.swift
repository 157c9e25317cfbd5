import WaymarkCore

/// A growing UTF-8 buffer for writing SVG (and the replay's data) quickly and deterministically:
/// numbers are printed in fixed point with integer arithmetic, never through locale-dependent
/// or machine-dependent formatting, so the same drawing gives the same bytes everywhere.
struct SVGBuffer {
  /// What has been written.
  private(set) var bytes: [UInt8] = []

  /// An empty buffer with room for `capacity` bytes.
  init(capacity: Int = 1 << 14) {
    bytes.reserveCapacity(capacity)
  }

  /// The text written so far.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends text as it is (no escaping).
  mutating func raw(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Appends a literal as it is.
  mutating func raw(_ literal: StaticString) {
    literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends one ASCII character.
  mutating func byte(_ byte: UInt8) {
    bytes.append(byte)
  }

  /// Appends text escaped for an XML attribute value or text node (`& < > " '`), without
  /// what XML 1.0 does not allow: control characters but tab and line breaks are left out,
  /// U+FFFE and U+FFFF become U+FFFD.
  mutating func escaped(_ text: String) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): raw("&amp;")
      case UInt8(ascii: "<"): raw("&lt;")
      case UInt8(ascii: ">"): raw("&gt;")
      case UInt8(ascii: "\""): raw("&quot;")
      case UInt8(ascii: "'"): raw("&#39;")
      case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D: continue  // not allowed in XML 1.0
      case 0xBE,
        0xBF where bytes.count >= 2 && bytes[bytes.count - 2] == 0xEF && bytes[bytes.count - 1] == 0xBF:
        bytes.append(0xBD)  // EF BF BE/BF (U+FFFE/U+FFFF) as EF BF BD: the text is valid UTF-8
      default: bytes.append(byte)
      }
    }
  }

  /// Appends `value` rounded to `decimals` (0...12) places, without trailing zeros; `-0` and
  /// values that round to zero print as `0`, non-finite values as `0`.
  mutating func number(_ value: Double, decimals: Int = 2) {
    let scale = SVGBuffer.powersOfTen[decimals]
    let scaled = (value * scale).rounded()
    guard scaled.isFinite, abs(scaled) < 9e15 else {
      raw(value.isFinite ? String(Int64(value.rounded())) : "0")
      return
    }
    var units = Int64(scaled)
    if units == 0 {
      byte(UInt8(ascii: "0"))
      return
    }
    if units < 0 {
      byte(UInt8(ascii: "-"))
      units = -units
    }
    let divisor = Int64(scale)
    integer(units / divisor)
    var fraction = units % divisor
    guard fraction != 0 else { return }
    byte(UInt8(ascii: "."))
    var digits = decimals
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    var divisorOfDigit = Int64(SVGBuffer.powersOfTen[digits - 1])
    while divisorOfDigit > 0 {
      byte(UInt8(ascii: "0") + UInt8(fraction / divisorOfDigit % 10))
      divisorOfDigit /= 10
    }
  }

  /// Appends a non-negative integer.
  mutating func integer(_ value: Int64) {
    if value >= 10 { integer(value / 10) }
    byte(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// Appends a JSON string literal.
  mutating func json(_ text: String) {
    var literal = ""
    TraceJSON.writeString(text, to: &literal)
    raw(literal)
  }

  /// Appends ` name="value"` with the number formatted by ``number(_:decimals:)``.
  mutating func attribute(_ name: StaticString, _ value: Double, decimals: Int = 2) {
    byte(UInt8(ascii: " "))
    raw(name)
    raw("=\"")
    number(value, decimals: decimals)
    byte(UInt8(ascii: "\""))
  }

  /// Appends ` name="value"` with the value escaped.
  mutating func attribute(_ name: StaticString, _ value: String) {
    byte(UInt8(ascii: " "))
    raw(name)
    raw("=\"")
    escaped(value)
    byte(UInt8(ascii: "\""))
  }

  private static let powersOfTen: [Double] = (0...12).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }
}

/// A number as the SVG writes it (two decimals at most).
func format(_ value: Double, decimals: Int = 2) -> String {
  var buffer = SVGBuffer(capacity: 24)
  buffer.number(value, decimals: decimals)
  return buffer.text
}
