import Testing
import WaymarkTesting

@testable import WaymarkCore

/// The byte-by-byte line breaking of ASCII text gives exactly the lines of the general,
/// grapheme-cluster path (rule R7: the default window's title and snippet wrap and
/// truncate the same whichever path measured them).
@Suite struct TextLineBreakerByteTests {
  /// ASCII pieces that exercise every branch: words of every width class, runs of spaces
  /// and tabs, each newline (CR LF included), control characters, long unbroken words.
  static let asciiPieces = [
    "Marker", "42", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\r\r\n", "\n\n",
    "iiiiiiiiii", "WWWWWWWWWWWWWWWWWWWWWWWWWWWW", "mmm", "f.l", "\u{01}", "~", "Sydney Opera House",
    "a",
  ]
  /// Non-ASCII pieces: combining marks (also after a space or newline), emoji, CJK, a
  /// Unicode line separator, NEL and a non-breaking space.
  static let otherPieces = [
    "\u{301}", "e\u{301}", "é", "🙂", "👩‍👩‍👧", "東京", "\u{2028}", "\u{85}", "\u{A0}", "…",
  ]

  /// A random string of up to 12 pieces.
  static func randomText(_ rng: inout SplitMix64, pieces: [String]) -> String {
    let count = Int(rng.next() % 13)
    return (0..<count).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
  }

  /// The lines of both paths for one text, at a random width and line limit.
  static func bothPaths(
    _ text: String, _ rng: inout SplitMix64
  ) -> (bytes: [TextLineBreaker.Line], characters: [TextLineBreaker.Line], truncated: (Bool, Bool)) {
    let style = TextStyle.allCases[Int(rng.next() % UInt64(TextStyle.allCases.count))]
    let breaker = TextLineBreaker(metrics: .standard, style: style)
    let maxWidth = [0, 4.7, 9.4, 30, 75.2, 256][Int(rng.next() % 6)]
    let maxLines = [nil, 1, 2, 4][Int(rng.next() % 4)]
    let fast = breaker.lines(of: text, maxWidth: maxWidth, maxLines: maxLines, byBytes: true)
    let general = breaker.lines(of: text, maxWidth: maxWidth, maxLines: maxLines, byBytes: false)
    return (fast.lines, general.lines, (fast.truncated, general.truncated))
  }

  @Test("R7: ASCII text breaks into the same lines byte by byte as by grapheme cluster")
  func asciiBytesMatchCharacters() {
    var rng = SplitMix64(seed: 0x4259_5445)
    for _ in 0..<4000 {
      let text = Self.randomText(&rng, pieces: Self.asciiPieces)
      let (bytes, characters, truncated) = Self.bothPaths(text, &rng)
      #expect(bytes == characters, "\(text.debugDescription)")
      #expect(truncated.0 == truncated.1, "\(text.debugDescription)")
    }
  }

  @Test("R7: text with any non-ASCII character is broken by grapheme cluster")
  func mixedTextTakesTheGeneralPath() {
    var rng = SplitMix64(seed: 0x4D49_5845)
    for _ in 0..<2000 {
      let text =
        Self.randomText(&rng, pieces: Self.asciiPieces)
        + Self.otherPieces[Int(rng.next() % UInt64(Self.otherPieces.count))]
        + Self.randomText(&rng, pieces: Self.asciiPieces + Self.otherPieces)
      let breaker = TextLineBreaker(metrics: .standard, style: .title)
      let maxLines = [nil, 1, 2][Int(rng.next() % 3)]
      let chosen = breaker.lines(of: text, maxWidth: 30, maxLines: maxLines)
      let general = breaker.lines(of: text, maxWidth: 30, maxLines: maxLines, byBytes: false)
      #expect(chosen.lines == general.lines, "\(text.debugDescription)")
      #expect(chosen.truncated == general.truncated, "\(text.debugDescription)")
    }
  }

  @Test("R7: a title of ASCII words wraps at spaces, CR LF is one line break")
  func asciiExamples() {
    let breaker = TextLineBreaker(metrics: .standard, style: .body)
    let lines = breaker.lines(of: "ab  cd\r\nef\tgh", maxWidth: 1000, maxLines: nil).lines
    #expect(lines.map(\.text) == ["ab cd", "ef gh"])
  }
}
