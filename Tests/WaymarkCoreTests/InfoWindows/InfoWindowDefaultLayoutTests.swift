import Testing
import WaymarkCore

/// The default window of rule R7: title in bold, snippet under it, wrapped, very
/// long text truncated; none at all when title and snippet are both empty or nil.
@Suite struct InfoWindowDefaultLayoutTests {
  @Test(arguments: [(String?.none, String?.none), ("", ""), ("", nil), (nil, "")])
  func noDefaultWindowWithoutTitleOrSnippet(title: String?, snippet: String?) {
    // R7: if title and snippet are both empty or nil, the default window is not shown.
    #expect(InfoWindowLayout.defaultWindow(title: title, snippet: snippet) == nil)
  }

  @Test func titleOnlyIsBoldInTheFrame() throws {
    let layout = try #require(InfoWindowLayout.defaultWindow(title: "Melbourne", snippet: nil))
    // "Melbourne" in title style is 79.9 wide, one 20.4-point line.
    #expect(layout.kind == .default)
    #expect(isClose(layout.size, 79.9 + 24, 20.4 + 16 + 10))
    guard case .text(let title) = layout.content.element else {
      Issue.record("not text")
      return
    }
    #expect(title.style == .title)
    #expect(title.fontSize == 17)
  }

  @Test func snippetOnlyIsBody() throws {
    let layout = try #require(InfoWindowLayout.defaultWindow(title: "", snippet: "aaaa"))
    #expect(isClose(layout.size, 54, 42.8))
  }

  @Test func snippetGoesUnderTheTitle() throws {
    let layout = try #require(InfoWindowLayout.defaultWindow(title: "Hi", snippet: "aaaa"))
    // Width max(14.1, 30) + 24; height 20.4 + 2 + 16.8 + 16, then the 10-point tail.
    #expect(isClose(layout.size, 54, 55.2 + 10))
    let parts = layout.content.children
    #expect(lines(of: parts[0]) == ["Hi"])
    #expect(isClose(parts[0].frame, 12, 8, 14.1, 20.4))
    #expect(isClose(parts[1].frame, 12, 30.4, 30, 16.8))
  }

  @Test("R7: A very long snippet is wrapped then truncated") func aVeryLongSnippetIsWrappedThenTruncated() throws {
    // R7: very long text is truncated; at most 4 snippet lines by default.
    let snippet = Array(repeating: "lorem ipsum dolor", count: 300).joined(separator: " ")
    let layout = try #require(InfoWindowLayout.defaultWindow(title: "Title", snippet: snippet))
    let shown = lines(of: layout.content.children[1])
    #expect(shown.count == 4)
    #expect(shown.last?.hasSuffix("…") == true)
    #expect(isClose(layout.size.height, 20.4 + 2 + 4 * 16.8 + 16 + 10))
    #expect(layout.size.width <= 280)
  }

  @Test func aVeryLongTitleIsTruncatedToTwoLines() throws {
    let title = String(repeating: "Melbourne ", count: 50)
    let layout = try #require(InfoWindowLayout.defaultWindow(title: title, snippet: nil))
    let shown = lines(of: layout.content)
    #expect(shown.count == 2)
    #expect(shown[1].hasSuffix("…"))
  }

  @Test func lineLimitsComeFromTheMetrics() throws {
    var metrics = InfoWindowMetrics.standard
    metrics.maxSnippetLines = 1
    let layout = try #require(
      InfoWindowLayout.defaultWindow(
        title: nil, snippet: String(repeating: "aaaa ", count: 100), metrics: metrics))
    #expect(lines(of: layout.content).count == 1)
  }
}
