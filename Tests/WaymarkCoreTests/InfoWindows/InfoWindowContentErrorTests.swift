import Testing
import WaymarkCore

/// Every decoding error names the path of the offending field and its value.
@Suite struct InfoWindowContentErrorTests {
  // Computed, not stored: LeakSanitizer cannot see the tagged pointers a global ContentValue
  // keeps its boxes through (scripts/sanitizers/lsan.supp).
  static var cases: [(ContentValue, String)] {
    [
      (
        [["text": "a"], ["image": "i", "width": -3, "height": 1]],
        "content[2].width: -3 is negative"
      ),
      (["text": "a", "style": "huge"], #"content.style: "huge" is not one of title, body, caption"#),
      (
        ["a", "b", ["style": "title"]], "content[3]: a node needs one of text, image, vstack, hstack"
      ),
      (
        ["a", "b", ["image": "i", "width": 1, "height": .number(.nan)]],
        "content[3].height: nan is not a finite number"
      ),
      (
        ["image": "i", "width": .number(.infinity), "height": 1],
        "content.width: inf is not a finite number"
      ),
      ([["text": "a", "styel": "title"]], "content[1].styel: unknown field; did you mean style?"),
      (["txt": "a"], "content.txt: unknown field; did you mean text?"),
      (["text": "a", "colour": "red"], "content.colour: unknown field; did you mean color?"),
      (["text": "a", "zzz": 1], "content.zzz: unknown field"),
      (["text": "a", "width": 3], "content.width: not a field of text nodes"),
      (["text": "a", "spacing": 2], "content.spacing: not a field of text nodes"),
      (
        ["text": "a", "image": "b"],
        "content: a node takes only one of text, image, vstack, hstack; found text and image"
      ),
      (["image": "i", "width": 3], "content: an image needs width and height"),
      (["image": "", "width": 3, "height": 3], #"content.image: "" is not an image name"#),
      (
        ["text": "a", "color": "#12345"],
        ##"content.color: "#12345" is not a colour: "#RRGGBB", "#RRGGBBAA" or one of black, white, gray, grey, red, green, blue, yellow, orange, purple, clear"##
      ),
      (["text": "a", "max_lines": 0], "content.max_lines: 0 is not a whole number of at least 1"),
      (
        ["text": "a", "max_lines": 1.5], "content.max_lines: 1.5 is not a whole number of at least 1"
      ),
      (["text": 42], "content.text: 42 is not a string"),
      (["image": "i", "width": "40", "height": 1], #"content.width: "40" is not a number"#),
      (["vstack": ["text": "a"]], "content.vstack: a table is not a list of nodes"),
      (
        ["vstack": [["text": "a"], 5]],
        "content.vstack[2]: 5 is not a node (a string, a list or a table)"
      ),
      (
        ["hstack": ["a"], "align": "leading"],
        #"content.align: "leading" is not one of top, center, bottom"#
      ),
      (
        ["text": "a", "padding": ["top": 1, "lefft": 2]],
        "content.padding.lefft: unknown field; did you mean left?"
      ),
      (["text": "a", "padding": ["top": -1]], "content.padding.top: -1 is negative"),
      (
        ["text": "a", "padding": "8"],
        #"content.padding: "8" is not a number or a table of top, left, bottom, right"#
      ),
      (["image": "i", "width": 20000, "height": 1], "content.width: 20000 is more than 10000"),
      (true, "content: true is not a node (a string, a list or a table)"),
      ([], "content: an empty table shows nothing; return nil for no window"),
      (.table([]), "content: an empty table shows nothing; return nil for no window"),
      (.table([("text", "a"), ("text", "b")]), "content.text: duplicate field"),
      (
        [["vstack": [["text": "a", "stlye": "x"]]]],
        "content[1].vstack[1].stlye: unknown field; did you mean style?"
      ),
    ]
  }

  @Test(arguments: cases)
  func errorNamesPathAndValue(value: ContentValue, message: String) {
    #expect(throws: ContentError.self) { try InfoWindowContent(decoding: value) }
    do {
      _ = try InfoWindowContent(decoding: value)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func errorSplitsPathAndMessage() {
    #expect(
      throws: ContentError(
        path: "content.style", message: #""huge" is not one of title, body, caption"#)
    ) {
      try InfoWindowContent(decoding: ["text": "a", "style": "huge"])
    }
  }

  /// A list nested `levels` deep around one string; the string is at depth `levels + 1`.
  static func nested(_ levels: Int) -> ContentValue {
    var value: ContentValue = "x"
    for _ in 0..<levels { value = [value] }
    return value
  }

  @Test func depthUpToTheLimitDecodes() throws {
    _ = try InfoWindowContent(decoding: Self.nested(31))
  }

  @Test func depthPastTheLimitIsRejectedWithItsPath() {
    let path = "content" + String(repeating: "[1]", count: 32)
    #expect(throws: ContentError(path: path, message: "nodes nested deeper than 32 levels")) {
      try InfoWindowContent(decoding: Self.nested(32))
    }
  }

  @Test func aHostileDepthIsRejectedWithoutRecursingThroughIt() {
    #expect(throws: ContentError.self) { try InfoWindowContent(decoding: Self.nested(5_000)) }
  }

  @Test func nodeCountUpToTheLimitDecodes() throws {
    // The list itself is a node: 1 + 999 = 1,000.
    _ = try InfoWindowContent(decoding: .list(Array(repeating: "x", count: 999)))
  }

  @Test func nodeCountPastTheLimitIsRejected() {
    #expect(throws: ContentError(path: "content[1000]", message: "more than 1000 nodes")) {
      try InfoWindowContent(decoding: .list(Array(repeating: "x", count: 1_000)))
    }
  }

  @Test func limitsAreConfigurable() {
    let limits = ContentLimits(maxDepth: 2, maxNodes: 3)
    #expect(
      throws: ContentError(path: "content[1][1]", message: "nodes nested deeper than 2 levels")
    ) {
      try InfoWindowContent(decoding: Self.nested(2), limits: limits)
    }
    #expect(throws: ContentError(path: "content[3]", message: "more than 3 nodes")) {
      try InfoWindowContent(decoding: ["a", "b", "c"], limits: limits)
    }
  }

  @Test func overlongTextIsRejectedWithItsStartAndLength() {
    let text = String(repeating: "a", count: 16_385)
    let shown = "\"" + String(repeating: "a", count: 40) + "…\""
    #expect(
      throws: ContentError(
        path: "content.text", message: "\(shown) has 16385 bytes, more than 16384")
    ) {
      try InfoWindowContent(decoding: ["text": .string(text)])
    }
    #expect(throws: Never.self) {
      try InfoWindowContent(decoding: .string(String(repeating: "a", count: 16_384)))
    }
  }

  /// Layout cost grows with bytes, not characters: one character with thousands of
  /// combining marks is as long as the bytes it takes.
  @Test func textIsMeasuredInBytesNotCharacters() {
    let cluster = "a" + String(repeating: "\u{0301}", count: 9_000)  // one character, 18,001 bytes
    #expect(throws: ContentError.self) { try InfoWindowContent(decoding: .string(cluster)) }
    let quarter = ContentValue.string(String(repeating: "x", count: 16_384))
    #expect(throws: Never.self) { try InfoWindowContent(decoding: .list([quarter, quarter, quarter, quarter])) }
    #expect(
      throws: ContentError(path: "content[5]", message: "the content's texts have more than 65536 bytes in all")
    ) {
      try InfoWindowContent(decoding: .list([quarter, quarter, quarter, quarter, "x"]))
    }
  }
}
