/// An sRGB colour with 8-bit channels, written in content as `"#RRGGBB"`,
/// `"#RRGGBBAA"` (hex digits in either case) or a name from `namedColors`.
public struct ContentColor: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// Red, 0...255.
  package var red: UInt8
  /// Green, 0...255.
  package var green: UInt8
  /// Blue, 0...255.
  package var blue: UInt8
  /// Opacity, 0 (transparent) ... 255 (opaque).
  package var alpha: UInt8

  /// Creates a colour from its channels; opaque unless `alpha` says otherwise.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// Parses `"#RRGGBB"`, `"#RRGGBBAA"` or a colour name (case-insensitive); nil otherwise.
  package init?(parsing text: String) {
    let lowered = text.lowercased()
    if let named = Self.namedColors.first(where: { $0.name == lowered }) {
      self = named.color
      return
    }
    guard lowered.hasPrefix("#") else { return nil }
    let digits = Array(lowered.utf8.dropFirst())
    guard digits.count == 6 || digits.count == 8 else { return nil }
    var channels: [UInt8] = []
    var index = 0
    while index < digits.count {
      guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1])
      else { return nil }
      channels.append(high << 4 | low)
      index += 2
    }
    self.init(
      red: channels[0], green: channels[1], blue: channels[2],
      alpha: channels.count == 4 ? channels[3] : 255)
  }

  /// Throws unless `text` is a colour ``init(parsing:)`` accepts, naming `field` and what a
  /// colour looks like, with the closest colour name when one fits (`"reddish"`: did you
  /// mean red?). Marker tints and overlay colours are checked with it, as content colours are.
  package static func validate(_ text: String?, _ field: String) throws(MapError) {
    guard let text, ContentColor(parsing: text) == nil else { return }
    let names = namedColors.map(\.name)
    throw .invalidValue(
      field: field, value: "\"\(text)\"",
      reason: "is not a colour: write \"#RRGGBB\", \"#RRGGBBAA\" or one of \(names.joined(separator: ", "))"
        + Suggestion.hint(for: text, among: names))
  }

  /// `#RRGGBBAA` in upper case.
  public var description: String {
    "#"
      + [red, green, blue, alpha].map { byte in
        let hex = String(byte, radix: 16, uppercase: true)
        return hex.count == 1 ? "0" + hex : hex
      }.joined()
  }

  /// The colour names accepted, in the order an error message lists them; the
  /// values follow UIKit's (`gray` is 50 %, `orange` is #FF8000).
  package static let namedColors: [(name: String, color: ContentColor)] = [
    ("black", ContentColor(red: 0, green: 0, blue: 0)),
    ("white", ContentColor(red: 255, green: 255, blue: 255)),
    ("gray", ContentColor(red: 128, green: 128, blue: 128)),
    ("grey", ContentColor(red: 128, green: 128, blue: 128)),
    ("red", ContentColor(red: 255, green: 0, blue: 0)),
    ("green", ContentColor(red: 0, green: 255, blue: 0)),
    ("blue", ContentColor(red: 0, green: 0, blue: 255)),
    ("yellow", ContentColor(red: 255, green: 255, blue: 0)),
    ("orange", ContentColor(red: 255, green: 128, blue: 0)),
    ("purple", ContentColor(red: 128, green: 0, blue: 128)),
    ("clear", ContentColor(red: 0, green: 0, blue: 0, alpha: 0)),
  ]

  /// Opaque white, the default frame's background.
  package static let white = ContentColor(red: 255, green: 255, blue: 255)

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    default: return nil
    }
  }
}
