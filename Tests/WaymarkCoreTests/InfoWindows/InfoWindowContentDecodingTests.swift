import Testing
import WaymarkCore

/// The contract shapes (docs/info-window-content.md) and the richer keys decode to the expected model.
@Suite struct InfoWindowContentDecodingTests {
  @Test func aStringIsOneBodyText() throws {
    let content = try InfoWindowContent(decoding: "Melbourne")
    #expect(content.root == .text(TextNode("Melbourne", style: .body)))
  }

  @Test(arguments: [
    ("title", TextStyle.title), ("body", .body), ("caption", .caption),
  ])
  func aTextNodeTakesItsStyle(name: String, style: TextStyle) throws {
    let content = try InfoWindowContent(decoding: ["text": "Melbourne", "style": .string(name)])
    #expect(content.root == .text(TextNode("Melbourne", style: style)))
  }

  @Test func anImageNodeTakesItsNameAndSize() throws {
    let content = try InfoWindowContent(decoding: ["image": "Icon", "width": 40, "height": 40.5])
    #expect(content.root == .image(ImageNode(name: "Icon", width: 40, height: 40.5)))
  }

  @Test func aListIsAVerticalStackTopToBottom() throws {
    // The example melbourne_window plugin of docs/plugins.md.
    let content = try InfoWindowContent(decoding: [
      ["text": "Melbourne", "style": "title"], ["image": "Icon", "width": 40, "height": 40],
    ])
    #expect(
      content.root
        == .stack(
          StackNode(
            .vertical,
            [
              .text(TextNode("Melbourne", style: .title)),
              .image(ImageNode(name: "Icon", width: 40, height: 40)),
            ])))
  }

  @Test func textOptionsDecode() throws {
    let content = try InfoWindowContent(decoding: [
      "text": "Hi", "color": "#FF800080", "max_lines": 2, "align": "center",
    ])
    let expected = TextNode(
      "Hi", color: ContentColor(red: 255, green: 128, blue: 0, alpha: 128), maxLines: 2,
      alignment: .center)
    #expect(content.root == .text(expected))
  }

  @Test func stacksTakeSpacingAndAlignment() throws {
    let content = try InfoWindowContent(decoding: [
      "hstack": [["image": "a", "width": 1, "height": 2], "b"], "spacing": 4, "align": "bottom",
    ])
    let children: [ContentNode] = [
      .image(ImageNode(name: "a", width: 1, height: 2)), .text(TextNode("b")),
    ]
    #expect(
      content.root == .stack(StackNode(.horizontal, children, spacing: 4, alignment: .end)))
    let vertical = try InfoWindowContent(decoding: ["vstack": ["b"], "align": "trailing"])
    #expect(
      vertical.root == .stack(StackNode(.vertical, [.text(TextNode("b"))], alignment: .end)))
  }

  @Test func boxFieldsWrapTheNode() throws {
    let content = try InfoWindowContent(decoding: [
      "text": "Hi", "padding": ["top": 1, "left": 2, "right": 4], "background": "white",
      "corner_radius": 6, "min_width": 100, "max_width": 200,
    ])
    let expected = BoxNode(
      .text(TextNode("Hi")), padding: EdgeInsets(top: 1, left: 2, bottom: 0, right: 4),
      background: .white, cornerRadius: 6, minWidth: 100, maxWidth: 200)
    #expect(content.root == .box(expected))
    let uniform = try InfoWindowContent(decoding: ["text": "Hi", "padding": 8])
    #expect(
      uniform.root == .box(BoxNode(.text(TextNode("Hi")), padding: EdgeInsets(all: 8))))
  }

  @Test func nilFieldsCountAsAbsentAndNestedListsAreStacks() throws {
    let content = try InfoWindowContent(decoding: [["text": "a", "style": nil], [], ["b"]])
    #expect(
      content.root
        == .stack(
          StackNode(
            .vertical,
            [
              .text(TextNode("a")), .stack(StackNode(.vertical, [])),
              .stack(StackNode(.vertical, [.text(TextNode("b"))])),
            ])))
  }

  @Test func theDocumentedExampleDecodes() throws {
    // docs/info-window-content.md, section "Shapes".
    let content = try InfoWindowContent(decoding: [
      "vstack": [
        ["text": "Melbourne", "style": "title"],
        [
          "hstack": [
            ["image": "Icon", "width": 40, "height": 40],
            ["text": "Capital of Victoria\nPop. 5 million", "style": "caption", "color": "gray"],
          ],
          "spacing": 8, "align": "center",
        ],
      ],
      "spacing": 4, "padding": 8, "background": "#FFFFFF", "corner_radius": 8,
    ])
    guard case .box(let box) = content.root, case .stack(let stack) = box.child else {
      Issue.record("expected a box around a stack, got \(content.root)")
      return
    }
    #expect(box.padding == EdgeInsets(all: 8))
    #expect(box.cornerRadius == 8)
    #expect(stack.spacing == 4)
    #expect(stack.children.count == 2)
  }

  @Test(arguments: [
    ("#FF8000", ContentColor(red: 255, green: 128, blue: 0)),
    ("#ff800080", ContentColor(red: 255, green: 128, blue: 0, alpha: 128)),
    ("Red", ContentColor(red: 255, green: 0, blue: 0)),
    ("grey", ContentColor(red: 128, green: 128, blue: 128)),
    ("clear", ContentColor(red: 0, green: 0, blue: 0, alpha: 0)),
  ])
  func coloursParse(text: String, color: ContentColor) {
    #expect(ContentColor(parsing: text) == color)
  }

  @Test(arguments: ["#GGGGGG", "ff0000", "#FFF", "#FF00001", "", "pink"])
  func malformedColoursDoNotParse(text: String) {
    #expect(ContentColor(parsing: text) == nil)
  }

  @Test func colourDescriptionIsHex() {
    #expect(ContentColor(red: 10, green: 255, blue: 0, alpha: 1).description == "#0AFF0001")
  }
}
