import Testing
import WaymarkCore

/// Stacks, boxes, images and the three window kinds of rule R7. Sizes derive from
/// the standard metrics: body "aaaa" is 30 x 16.8; frame padding 8 / 12; tail 10.
@Suite struct InfoWindowLayoutTests {
  // Computed, not stored: LeakSanitizer cannot see the tagged pointers a global ContentValue
  // keeps its boxes through (scripts/sanitizers/lsan.supp).
  static var tall: ContentValue { ["image": "a", "width": 10, "height": 20] }
  static var wide: ContentValue { ["image": "b", "width": 30, "height": 5] }

  @Test func verticalStackAddsSpacingAndAlignsChildren() throws {
    let layout = try window(["vstack": [Self.tall, Self.wide], "spacing": 4, "align": "center"])
    #expect(isClose(layout.size, 30, 29))
    let children = layout.content.children
    #expect(isClose(children[0].frame, 10, 0, 10, 20))
    #expect(isClose(children[1].frame, 0, 24, 30, 5))
  }

  @Test func horizontalStackAddsSpacingAndAlignsChildren() throws {
    let layout = try window(["hstack": [Self.tall, Self.wide], "spacing": 6, "align": "bottom"])
    #expect(isClose(layout.size, 46, 20))
    let children = layout.content.children
    #expect(isClose(children[0].frame, 0, 0, 10, 20))
    #expect(isClose(children[1].frame, 16, 15, 30, 5))
  }

  @Test func aListStacksWithoutSpacing() throws {
    let layout = try window([Self.tall, Self.wide])
    #expect(isClose(layout.size, 30, 25))
  }

  @Test func horizontalStackOffersLaterChildrenWhatIsLeft() throws {
    // 280 - 200 image - 4 spacing = 76 points for the text: "aaaa bbbb" (63.75) / "cccc".
    let layout = try window([
      "hstack": [["image": "p", "width": 200, "height": 10], "aaaa bbbb cccc"], "spacing": 4,
    ])
    #expect(lines(of: layout.content.children[1]) == ["aaaa bbbb", "cccc"])
    #expect(isClose(layout.size, 267.75, 33.6))
  }

  @Test func paddingSurroundsTheChild() throws {
    let layout = try window([
      "image": "a", "width": 10, "height": 20,
      "padding": ["top": 1, "left": 2, "bottom": 3, "right": 4], "background": "#ff0000",
      "corner_radius": 5,
    ])
    #expect(isClose(layout.size, 16, 24))
    #expect(
      layout.content.element == .box(background: ContentColor(parsing: "red"), cornerRadius: 5))
    #expect(isClose(layout.content.children[0].frame, 2, 1, 10, 20))
    #expect(isClose(try window(["text": "aaaa", "padding": 8]).size, 46, 32.8))
  }

  @Test func minAndMaxWidthBoundTheBox() throws {
    #expect(isClose(try window(["text": "aaaa", "min_width": 100]).size, 100, 16.8))
    // min_width never exceeds the width available.
    #expect(isClose(try window(["text": "aaaa", "min_width": 500]).size, 280, 16.8))
    let narrow = try window(["text": "aaaa bbbb", "max_width": 40])
    #expect(lines(of: narrow.content.children[0]) == ["aaaa", "bbbb"])
    #expect(isClose(narrow.size, 30, 33.6))
  }

  @Test func anImageWiderThanTheWindowScalesDown() throws {
    #expect(isClose(try window(["image": "p", "width": 560, "height": 100]).size, 280, 50))
  }

  @Test func nestedFramesAreInWindowCoordinates() throws {
    let layout = try window(["vstack": [Self.tall, ["text": "aaaa", "padding": 2]], "spacing": 1])
    let box = layout.content.children[1]
    #expect(isClose(box.frame, 0, 21, 34, 20.8))
    let text = box.children[0]
    #expect(isClose(text.frame, 2, 23, 30, 16.8))
    guard case .text(let laidOut) = text.element else {
      Issue.record("not text")
      return
    }
    #expect(isClose(laidOut.lines[0].frame, 2, 23, 30, 16.8))
  }

  @Test func aCustomWindowHasNoFrameAndIsAtMostMaxWidth() throws {
    let layout = try window(.string(String(repeating: "word ", count: 200)))
    #expect(layout.kind == .window)
    #expect(layout.frame == nil)
    #expect(layout.size.width <= 280)
    #expect(
      layout.bodyRect
        == Rect(x: 0, y: 0, width: layout.size.width, height: layout.size.height))
  }

  @Test func contentsGetTheDefaultFramePaddingAndTail() throws {
    let layout = InfoWindowLayout.contents(try InfoWindowContent(decoding: "aaaa"))
    // Body 30 + 12 + 12 wide, 16.8 + 8 + 8 high; the tail adds 10 below.
    #expect(layout.kind == .contents)
    #expect(isClose(layout.size, 54, 42.8))
    let frame = try #require(layout.frame)
    #expect(isClose(frame.body, 0, 0, 54, 32.8))
    #expect(isClose(frame.tail, 17, 32.8, 20, 10))
    #expect(frame.background == .white)
    #expect(isClose(layout.content.frame, 12, 8, 30, 16.8))
    #expect(isClose(layout.anchor.x, 27) && isClose(layout.anchor.y, 42.8))
  }

  @Test func contentsWrapInsideTheFramePadding() throws {
    // 280 - 24 = 256 points for the contents.
    let layout = InfoWindowLayout.contents(
      try InfoWindowContent(decoding: .string(String(repeating: "a", count: 40))))
    #expect(lines(of: layout.content) == [String(repeating: "a", count: 34), "aaaaaa"])
    #expect(isClose(layout.size, 255 + 24, 2 * 16.8 + 16 + 10))
  }

  @Test func aTinyFrameStillFitsItsTailAndCorners() throws {
    let layout = InfoWindowLayout.contents(
      try InfoWindowContent(decoding: ["image": "dot", "width": 4, "height": 4]))
    // 4 + 24 = 28 < 20 + 2 x 8 = 36.
    #expect(isClose(layout.size, 36, 30))
    #expect(isClose(try #require(layout.frame).tail, 8, 20, 20, 10))
  }

  @Test func tapsHitTheBodyButNotTheTail() throws {
    let layout = InfoWindowLayout.contents(try InfoWindowContent(decoding: "aaaa"))
    #expect(layout.contains(Point(x: 0, y: 0)))
    #expect(layout.contains(Point(x: 53.9, y: 32.7)))
    #expect(!layout.contains(Point(x: 54, y: 10)))
    #expect(!layout.contains(Point(x: 27, y: 35)))
    #expect(!layout.contains(Point(x: -1, y: 10)))
  }
}
