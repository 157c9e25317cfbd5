import Testing
import WaymarkCore

/// Text metrics, wrapping and truncation. Body: 14 pt, 7.5 pt per regular
/// character (3.75 narrow, 11.25 wide), lines 16.8 high; title: 17 pt, 9.4 pt,
/// lines 20.4 high; caption: 12 pt, 6.4 pt, lines 14.4 high.
@Suite struct InfoWindowTextLayoutTests {
  @Test(arguments: [
    (Character("i"), CharacterWidthClass.narrow), (" ", .narrow), (".", .narrow),
    ("a", .regular), ("…", .regular), ("é", .regular), ("M", .wide), ("w", .wide),
    ("中", .double), ("😀", .double), ("한", .double),
  ])
  func charactersHaveWidthClasses(character: Character, widthClass: CharacterWidthClass) {
    #expect(CharacterWidthClass(character) == widthClass)
  }

  @Test(arguments: [
    (TextStyle.title, "Melbourne", 79.9), (.body, "Hello", 30), (.caption, "aaaa", 25.6),
    (.body, "e\u{301}e\u{301}", 15), (.body, "中a", 22.5),
  ])
  func widthSumsAdvancesPerCharacter(style: TextStyle, text: String, width: Double) {
    // Melbourne: M wide 14.1 + six regular 56.4 + l, r narrow 9.4.
    #expect(isClose(InfoWindowMetrics.standard.width(of: text, style: style), width))
  }

  @Test(arguments: [(TextStyle.title, 17.0, 20.4), (.body, 14, 16.8), (.caption, 12, 14.4)])
  func lineHeightIsOnePointTwoTimesTheFontSize(style: TextStyle, size: Double, height: Double) {
    let metrics = InfoWindowMetrics.standard
    #expect(metrics.fontSize(for: style) == size)
    #expect(isClose(metrics.lineHeight(for: style), height))
  }

  @Test func oneLineTextIsAsWideAsItsCharacters() throws {
    let layout = try window("aaaa")
    #expect(isClose(layout.size, 30, 16.8))
    #expect(lines(of: layout.content) == ["aaaa"])
  }

  @Test func wrappingSplitsAtWordBoundaries() throws {
    // "aaaa bbbb" = 30 + 3.75 + 30 = 63.75 fits in 70; adding " cccc" would not.
    let layout = try window("aaaa bbbb cccc", maxWidth: 70)
    #expect(lines(of: layout.content) == ["aaaa bbbb", "cccc"])
    #expect(isClose(layout.size, 63.75, 33.6))
  }

  @Test func aLineExactlyAsWideAsTheLimitFits() throws {
    #expect(lines(of: try window("aaaa bbbb", maxWidth: 63.75).content) == ["aaaa bbbb"])
    #expect(lines(of: try window("aaaa bbbb", maxWidth: 63.7).content) == ["aaaa", "bbbb"])
  }

  static let sentence =
    "The quick brown fox jumps over the lazy dog while Melbourne wakes up to a grey and windy morning"

  @Test(arguments: [70.0, 100, 150, 200, 280])
  func wrappedLinesRespectTheMaxWidthAndKeepWordsWhole(maxWidth: Double) throws {
    let layout = try window(.string(Self.sentence), maxWidth: maxWidth)
    let shown = lines(of: layout.content)
    #expect(shown.count > 1)
    #expect(shown.joined(separator: " ") == Self.sentence)
    for line in shown {
      #expect(InfoWindowMetrics.standard.width(of: line, style: .body) <= maxWidth)
    }
    #expect(layout.size.width <= maxWidth)
  }

  @Test func aWordWiderThanTheLineBreaksInsideIt() throws {
    let layout = try window("aaaaaaaaaa", maxWidth: 30)
    #expect(lines(of: layout.content) == ["aaaa", "aaaa", "aa"])
  }

  @Test func newlinesStartLinesAndSpaceRunsCollapse() throws {
    let layout = try window("ab\n\ncd   ef")
    #expect(lines(of: layout.content) == ["ab", "", "cd ef"])
    #expect(isClose(layout.size.height, 3 * 16.8))
  }

  @Test func emptyTextHasNoLinesAndNoSize() throws {
    #expect(isClose(try window("").size, 0, 0))
  }

  @Test func truncationAddsAnEllipsisPastMaxLines() throws {
    // Unlimited: "aaaa bbbb" / "cccc dddd" / "eeee"; with 2 lines the second
    // must end in "…" within 70 points: "cccc ddd…" is 56.25 + 7.5 = 63.75.
    let layout = try window(["text": "aaaa bbbb cccc dddd eeee", "max_lines": 2], maxWidth: 70)
    #expect(lines(of: layout.content) == ["aaaa bbbb", "cccc ddd…"])
    guard case .text(let text) = layout.content.element else {
      Issue.record("not text")
      return
    }
    #expect(text.isTruncated)
    #expect(isClose(text.lines[1].frame, 0, 16.8, 63.75, 16.8))
    #expect(isClose(layout.size, 63.75, 33.6))
  }

  @Test func textThatFitsItsLinesIsNotTruncated() throws {
    let layout = try window(["text": "aaaa bbbb cccc dddd", "max_lines": 2], maxWidth: 70)
    #expect(lines(of: layout.content) == ["aaaa bbbb", "cccc dddd"])
  }

  @Test func ellipsisDropsTrailingSpace() throws {
    // "aaaa bbbb" then "cccc": the first line cut to fit "…" in 66 points:
    // "aaaa bbbb…" is 71.25 > 66, "aaaa bbb…" is 63.75.
    let layout = try window(["text": "aaaa bbbb cccc", "max_lines": 1], maxWidth: 66)
    #expect(lines(of: layout.content) == ["aaaa bbb…"])
    let spaced = try window(["text": "aaaa b cccc", "max_lines": 1], maxWidth: 45)
    // Lines "aaaa b" (41.25) / "cccc"; "aaaa b…" is 48.75 > 45; cutting "b" leaves a
    // trailing space, dropped too: "aaaa…" is 37.5.
    #expect(lines(of: spaced.content) == ["aaaa…"])
  }

  @Test(arguments: [("leading", 0.0), ("center", 20.625), ("trailing", 41.25)])
  func alignmentPlacesShorterLines(align: String, x: Double) throws {
    // Lines "aaaa bbbb" (63.75) and "ccc" (22.5): the short one moves by 0,
    // half or all of the 41.25 points between them.
    let layout = try window(["text": "aaaa bbbb\nccc", "align": .string(align)])
    guard case .text(let text) = layout.content.element else {
      Issue.record("not text")
      return
    }
    #expect(isClose(text.lines[1].frame, x, 16.8, 22.5, 16.8))
  }
}
