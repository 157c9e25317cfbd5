import WaymarkCore

/// The colours and type of Waymark's pictures, in one place (the replay page uses the same).
enum Palette {
  /// The sea, and the world beyond the square Mercator map.
  static let sea = "#AAD3EE"
  /// Land.
  static let land = "#F2EFE6"
  /// Coastlines and country borders.
  static let border = "#C4BBA6"
  /// The lines of latitude and longitude.
  static let graticule = "#5A7E9C"
  /// City names and dots on the base map.
  static let cityText = "#5C5444"
  /// Google's red, the default pin's.
  static let pin = "#EA4335"
  /// Links, selection, the my-location dot: Google's blue.
  static let accent = "#1A73E8"
  /// The default text colour of info windows.
  static let text = "#202124"
  /// Secondary text: labels, captions of the base map.
  static let secondaryText = "#5F6368"
  /// Placeholder fills: images and icon views that Waymark knows only by name and size.
  static let placeholder = "#E8EAED"
  /// Placeholder outlines.
  static let placeholderStroke = "#80868B"
  /// The text stack: the system font of whatever displays the picture.
  static let fontFamily =
    "-apple-system, BlinkMacSystemFont, 'SF Pro Text', 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

  /// `#RRGGBB` of a content colour (its alpha goes to an opacity attribute).
  static func hex(_ color: ContentColor) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = [UInt8(ascii: "#")]
    for channel in [color.red, color.green, color.blue] {
      out.append(digits[Int(channel >> 4)])
      out.append(digits[Int(channel & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends ` fill="#RRGGBB"` (and ` fill-opacity` when not opaque) for `color`.
  static func appendFill(_ color: ContentColor, to buffer: inout SVGBuffer) {
    buffer.attribute("fill", hex(color))
    if color.alpha < 255 { buffer.attribute("fill-opacity", Double(color.alpha) / 255, decimals: 3) }
  }

  /// A colour written by a script (`"#RRGGBB"`, `"#RRGGBBAA"` or a name), or `fallback` when
  /// it is missing or cannot be read.
  static func color(_ text: String?, or fallback: ContentColor) -> ContentColor {
    text.flatMap(ContentColor.init(parsing:)) ?? fallback
  }
}
