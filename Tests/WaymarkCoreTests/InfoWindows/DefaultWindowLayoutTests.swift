import Testing
import WaymarkTesting

@testable import WaymarkCore

/// The default window's short path (``DefaultWindowLayout``) lays out exactly the window of
/// the general path through the content tree (rule R7; rule R16 reads its frame on the next
/// tap), to the last bit of every frame, and is taken for the common titles.
@Suite struct DefaultWindowLayoutTests {
  /// Pieces of titles and snippets: words of every width class, single and repeated
  /// spaces, tabs, each newline, control characters, words wider than the window, and
  /// non-ASCII text (accents, emoji, CJK, non-breaking space, NEL).
  static let pieces = [
    "Marker", "42", " ", " ", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{01}", "iiii",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "mmm", "f.l", "Sydney Opera House", "a", "~", "é", "🙂", "東京", "\u{A0}", "\u{85}", "e\u{301}",
  ]

  /// ASCII words of every width class, one wider than the window.
  static let words = ["Marker", "42", "iiii", "mmm", "f.l", "a", "~", "Opera", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"]

  /// nil, empty, a marker's title, words and single spaces, or up to 14 random pieces.
  static func randomText(_ rng: inout SplitMix64) -> String? {
    switch rng.next() % 8 {
    case 0: return nil
    case 1: return ""
    case 2: return "Marker \(rng.next() % 1_000_000)"
    case 3:
      // Words and single spaces only, some lines too wide, some words wider than the window.
      let count = 1 + Int(rng.next() % 8)
      return (0..<count).map { _ in words[Int(rng.next() % UInt64(words.count))] }.joined(separator: " ")
    default:
      let count = Int(rng.next() % 15)
      return (0..<count).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
    }
  }

  /// Metrics with random widths, paddings (zero included) and spacing.
  static func randomMetrics(_ rng: inout SplitMix64) -> InfoWindowMetrics {
    let sides = [0, 8, 12, 3.3]
    func side() -> Double { sides[Int(rng.next() % UInt64(sides.count))] }
    return InfoWindowMetrics(
      maxWidth: [280, 120, 40, 0, 333.3][Int(rng.next() % 5)],
      framePadding: EdgeInsets(top: side(), left: side(), bottom: side(), right: side()),
      maxTitleLines: Int(rng.next() % 3), maxSnippetLines: Int(rng.next() % 5),
      titleSnippetSpacing: [2, 0, 0.7][Int(rng.next() % 3)],
      averageAdvances: [.title: [9.4, 8.1][Int(rng.next() % 2)], .body: 7.5, .caption: 6.4])
  }

  /// Every number of a laid-out node and its subtree, as bits (so that 0 and -0 differ).
  static func bits(_ node: LaidOutNode) -> [UInt64] {
    var all = bits(node.frame)
    if case .text(let text) = node.element {
      all.append(text.fontSize.bitPattern)
      for line in text.lines { all += bits(line.frame) }
    }
    for child in node.children { all += bits(child) }
    return all
  }

  static func bits(_ rect: Rect) -> [UInt64] {
    [rect.x.bitPattern, rect.y.bitPattern, rect.width.bitPattern, rect.height.bitPattern]
  }

  /// Every number of a layout, as bits.
  static func bits(_ layout: InfoWindowLayout?) -> [UInt64] {
    guard let layout else { return [] }
    var all = [layout.size.width.bitPattern, layout.size.height.bitPattern] + bits(layout.content)
    if let frame = layout.frame { all += bits(frame.body) + bits(frame.tail) + [frame.cornerRadius.bitPattern] }
    return all
  }

  @Test("R7: the short path lays out every title and snippet it takes as the general path does")
  func shortPathMatchesTheGeneralPath() {
    var rng = SplitMix64(seed: 0x4445_4641_554C_54)
    var taken = 0
    let runs = 6000
    for run in 0..<runs {
      let title = Self.randomText(&rng)
      let snippet = Self.randomText(&rng)
      let metrics = run % 2 == 0 ? InfoWindowMetrics.standard : Self.randomMetrics(&rng)
      let general = InfoWindowLayout.generalDefaultWindow(title: title, snippet: snippet, metrics: metrics)
      let chosen =
        run % 2 == 0
        ? InfoWindowLayout.defaultWindow(title: title, snippet: snippet)
        : InfoWindowLayout.defaultWindow(title: title, snippet: snippet, metrics: metrics)
      let context =
        "title \(String(describing: title).debugDescription), snippet \(String(describing: snippet).debugDescription)"
      #expect(chosen == general, "\(context)")
      #expect(Self.bits(chosen) == Self.bits(general), "\(context)")
      if let short = DefaultWindowLayout(metrics: metrics).layout(title: title, snippet: snippet) {
        taken += 1
        #expect(short == general, "\(context)")
        #expect(Self.bits(short) == Self.bits(general), "\(context)")
      }
    }
    // Both paths were exercised.
    #expect(taken > runs / 5)
    #expect(taken < runs * 4 / 5)
  }

  @Test("R7: a marker's usual title takes the short path")
  func markerTitlesTakeTheShortPath() throws {
    for title in ["Marker 42", "Sydney Opera House", "W"] {
      let short = try #require(DefaultWindowLayout.standard.layout(title: title, snippet: nil))
      #expect(short == InfoWindowLayout.generalDefaultWindow(title: title, snippet: nil, metrics: .standard))
    }
    // No text at all: no window, decided on the short path; blank text: the general path.
    #expect(DefaultWindowLayout.standard.layout(title: "", snippet: nil) == .some(nil))
    for blank in [" ", "\t", "\n"] {
      #expect(DefaultWindowLayout.standard.layout(title: blank, snippet: nil) == nil)
    }
  }

  @Test("R7: a text is blank on the short path exactly when the general path finds it blank")
  func asciiBlankness() {
    for code in 0..<128 {
      let text = String(UnicodeScalar(UInt8(code)))
      let general = InfoWindowLayout.generalDefaultWindow(title: text, snippet: nil, metrics: .standard)
      if let short = DefaultWindowLayout.standard.layout(title: text, snippet: nil) {
        #expect(short == general, "code \(code)")
      }
      #expect(InfoWindowLayout.defaultWindow(title: text, snippet: nil) == general, "code \(code)")
    }
  }
}
