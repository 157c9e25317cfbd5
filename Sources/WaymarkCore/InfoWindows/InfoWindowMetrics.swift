/// The constants of info-window layout: window width, the default frame, the
/// default window's line limits and the deterministic text metrics.
///
/// Text is measured without font files: each style has a font size and an
/// average advance per character, scaled by the character's ``CharacterWidthClass``;
/// a line is ``lineHeightMultiple`` times the font size high. The same text gives
/// the same size on every machine.
package struct InfoWindowMetrics: Sendable, Equatable {
  /// The widest a default window or the default frame of custom contents may be, in points,
  /// the frame included (R35).
  package var maxWidth: Double
  /// The largest side of a whole custom window (`marker_info_window`), in points: Google's
  /// "must not have bounds greater than 500 points on either dimension" (R35).
  package var maxCustomWindowSide: Double
  /// Space between the default frame's edge and the contents inside it.
  package var framePadding: EdgeInsets
  /// The default frame's corner radius, in points.
  package var frameCornerRadius: Double
  /// The default frame's fill (opaque white, like Google's).
  package var frameBackground: ContentColor
  /// The base width of the default frame's tail (the arrow under it), in points.
  package var tailWidth: Double
  /// The height of the default frame's tail, added below the rounded rectangle.
  package var tailHeight: Double
  /// The most lines of the marker title in the default window; more end in "…".
  package var maxTitleLines: Int
  /// The most lines of the marker snippet in the default window; more end in "…".
  package var maxSnippetLines: Int
  /// Points between the title and the snippet in the default window.
  package var titleSnippetSpacing: Double
  /// The font size of each text style, in points.
  package var fontSizes: [TextStyle: Double]
  /// The average advance of a regular-width character in each style, in points.
  package var averageAdvances: [TextStyle: Double]
  /// Line height as a multiple of the font size.
  package var lineHeightMultiple: Double

  /// Creates metrics; every default is documented on its property's use.
  package init(
    maxWidth: Double = 280,
    maxCustomWindowSide: Double = 500,
    framePadding: EdgeInsets = EdgeInsets(top: 8, left: 12, bottom: 8, right: 12),
    frameCornerRadius: Double = 8,
    frameBackground: ContentColor = .white,
    tailWidth: Double = 20,
    tailHeight: Double = 10,
    maxTitleLines: Int = 2,
    maxSnippetLines: Int = 4,
    titleSnippetSpacing: Double = 2,
    fontSizes: [TextStyle: Double] = [.title: 17, .body: 14, .caption: 12],
    averageAdvances: [TextStyle: Double] = [.title: 9.4, .body: 7.5, .caption: 6.4],
    lineHeightMultiple: Double = 1.2
  ) {
    self.maxWidth = maxWidth
    self.maxCustomWindowSide = maxCustomWindowSide
    self.framePadding = framePadding
    self.frameCornerRadius = frameCornerRadius
    self.frameBackground = frameBackground
    self.tailWidth = tailWidth
    self.tailHeight = tailHeight
    self.maxTitleLines = maxTitleLines
    self.maxSnippetLines = maxSnippetLines
    self.titleSnippetSpacing = titleSnippetSpacing
    self.fontSizes = fontSizes
    self.averageAdvances = averageAdvances
    self.lineHeightMultiple = lineHeightMultiple
  }

  /// Width 280 (a custom window: 500 on either side), frame padding 8 above and below and 12 at the sides, corner 8,
  /// tail 20 wide and 10 high, title at most 2 lines and snippet 4 with 2 points
  /// between them; title 17 pt bold (9.4 pt per character), body 14 pt (7.5),
  /// caption 12 pt (6.4); lines 1.2 times the font size.
  package static let standard = InfoWindowMetrics()

  /// The font size of `style`, in points (14 if the table lacks it).
  package func fontSize(for style: TextStyle) -> Double { fontSizes[style] ?? 14 }

  /// The height of one line of `style`: ``lineHeightMultiple`` times its font size.
  package func lineHeight(for style: TextStyle) -> Double {
    lineHeightMultiple * fontSize(for: style)
  }

  /// The advance of one character (grapheme cluster) in `style`, in points.
  package func advance(of character: Character, style: TextStyle) -> Double {
    (averageAdvances[style] ?? 7.5) * CharacterWidthClass(character).factor
  }

  /// The width of `text` on one line in `style`: the sum of its characters' advances.
  package func width(of text: some StringProtocol, style: TextStyle) -> Double {
    let average = averageAdvances[style] ?? 7.5
    var total = 0.0
    // ASCII text (the common case) is measured byte by byte, with no grapheme breaking.
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      for byte in text.utf8 { total += average * CharacterWidthClass.asciiFactors[Int(byte)] }
      return total
    }
    for character in text { total += average * CharacterWidthClass(character).factor }
    return total
  }
}

/// How wide a character is relative to the style's average advance.
package enum CharacterWidthClass: Sendable, Equatable {
  /// Half the average: space and `f i j l r t I . , : ; ' ! | ( ) [ ]`.
  case narrow
  /// The average: every other character, "…" included.
  case regular
  /// One and a half times the average: `m w M W @ %`.
  case wide
  /// Twice the average: CJK ideographs, kana, Hangul, full-width forms and emoji.
  case double

  /// Classifies a character (grapheme cluster) by its first Unicode scalar.
  package init(_ character: Character) {
    if let ascii = character.asciiValue {
      self = Self.asciiClasses[Int(ascii)]
      return
    }
    guard let scalar = character.unicodeScalars.first else {
      self = .regular
      return
    }
    if Self.narrowCharacters.contains(character) {
      self = .narrow
    } else if Self.wideCharacters.contains(character) {
      self = .wide
    } else if Self.doubleRanges.contains(where: { $0.contains(scalar.value) }) {
      self = .double
    } else {
      self = .regular
    }
  }

  /// The multiple of the average advance: 0.5, 1, 1.5 or 2.
  package var factor: Double {
    switch self {
    case .narrow: 0.5
    case .regular: 1
    case .wide: 1.5
    case .double: 2
    }
  }

  /// The factor of every ASCII character, by code.
  static let asciiFactors: [Double] = asciiClasses.map(\.factor)

  /// The class of every ASCII character, so the common case needs no hashing.
  private static let asciiClasses: [CharacterWidthClass] = (0..<128).map { code in
    let character = Character(Unicode.Scalar(UInt8(code)))
    if narrowCharacters.contains(character) { return .narrow }
    if wideCharacters.contains(character) { return .wide }
    return .regular
  }

  private static let narrowCharacters: Set<Character> = [
    " ", "\t", "f", "i", "j", "l", "r", "t", "I", ".", ",", ":", ";", "'", "!", "|", "(", ")",
    "[", "]",
  ]
  private static let wideCharacters: Set<Character> = ["m", "w", "M", "W", "@", "%"]
  private static let doubleRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
  ]
}
