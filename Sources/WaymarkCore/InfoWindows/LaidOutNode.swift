/// One node of a laid-out info window: its frame, what to draw there, and its
/// children, all in window coordinates (points from the window's top-left, y down).
package struct LaidOutNode: Sendable, Equatable {
  /// Where the node is, in window coordinates.
  package var frame: Rect
  /// What the node draws.
  package var element: LaidOutElement
  /// The laid-out children: a stack's, in order, or a box's single child.
  package var children: [LaidOutNode]

  /// Creates a laid-out node.
  package init(frame: Rect, element: LaidOutElement, children: [LaidOutNode] = []) {
    self.frame = frame
    self.element = element
    self.children = children
  }

  /// The same subtree moved by `dx` to the right and `dy` down.
  func offsetBy(dx: Double, dy: Double) -> LaidOutNode {
    guard dx != 0 || dy != 0 else { return self }
    var moved = self
    moved.frame = frame.offsetBy(dx: dx, dy: dy)
    if case .text(var text) = element {
      for index in text.lines.indices {
        text.lines[index].frame = text.lines[index].frame.offsetBy(dx: dx, dy: dy)
      }
      moved.element = .text(text)
    }
    moved.children = children.map { $0.offsetBy(dx: dx, dy: dy) }
    return moved
  }
}

/// What a laid-out node draws.
package enum LaidOutElement: Sendable, Equatable {
  /// Lines of text.
  case text(LaidOutText)
  /// The named image, scaled to the node's frame.
  case image(name: String)
  /// Nothing itself: a stack of its children.
  case stack(StackAxis)
  /// A fill behind the frame (if `background` is set) with rounded corners.
  case box(background: ContentColor?, cornerRadius: Double)
}

/// A text node as laid out: its style and its lines with their frames.
package struct LaidOutText: Sendable, Equatable {
  /// The style (title is bold).
  package var style: TextStyle
  /// The colour, or nil for the renderer's default.
  package var color: ContentColor?
  /// The font size in points, from ``InfoWindowMetrics``.
  package var fontSize: Double
  /// The lines, top to bottom; each frame is one line height high.
  package var lines: [LaidOutLine]
  /// True if lines were cut at the line limit, the last one ending in "…".
  package var isTruncated: Bool

  /// Creates laid-out text.
  package init(
    style: TextStyle, color: ContentColor?, fontSize: Double, lines: [LaidOutLine],
    isTruncated: Bool
  ) {
    self.style = style
    self.color = color
    self.fontSize = fontSize
    self.lines = lines
    self.isTruncated = isTruncated
  }
}

/// One line of laid-out text.
package struct LaidOutLine: Sendable, Equatable {
  /// The characters shown, "…" included if the text was truncated here.
  package var text: String
  /// Where the line is: as wide as its characters, placed by the text's alignment.
  package var frame: Rect

  /// Creates a laid-out line.
  package init(text: String, frame: Rect) {
    self.text = text
    self.frame = frame
  }
}
