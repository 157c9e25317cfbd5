/// Custom info-window content: what `marker_info_window` (a whole window) or
/// `marker_info_contents` (contents inside the default frame) return (rule R7).
///
/// Build it in Swift from ``ContentNode`` values, or decode it from a
/// `ContentValue` tree with `init(decoding:limits:)`; the table format is
/// documented there and in `docs/info-window-content.md`.
public struct InfoWindowContent: Sendable, Equatable {
  /// The root node; a list of nodes decodes to a vertical stack.
  package var root: ContentNode

  /// Wraps a node as window content.
  public init(_ root: ContentNode) {
    self.root = root
  }
}

/// One node of info-window content: a text, an image, a stack of nodes, or a box
/// that decorates a node (padding, background, width bounds).
public indirect enum ContentNode: Sendable, Equatable {
  /// Text in one of the three styles, wrapped at the available width.
  case text(TextNode)
  /// An image by name, at a fixed size in points.
  case image(ImageNode)
  /// Nodes one after another, vertically or horizontally.
  case stack(StackNode)
  /// A node with padding, a background and width bounds around it.
  case box(BoxNode)
}

/// The three text styles, each with a font size from `InfoWindowMetrics`.
public enum TextStyle: String, Sendable, Equatable, CaseIterable {
  /// Bold, the marker title's style (17 pt by default).
  case title
  /// Regular, the snippet's style and the default (14 pt by default).
  case body
  /// Small print (12 pt by default).
  case caption
}

/// Horizontal placement: of lines inside a text node, of children in a vertical stack.
public enum HorizontalAlignment: String, Sendable, Equatable, CaseIterable {
  /// Left edge (left-to-right text only is modelled).
  case leading
  /// Centred.
  case center
  /// Right edge.
  case trailing
}

/// Vertical placement of children in a horizontal stack.
public enum VerticalAlignment: String, Sendable, Equatable, CaseIterable {
  /// Top edge.
  case top
  /// Centred.
  case center
  /// Bottom edge.
  case bottom
}

/// A text node.
public struct TextNode: Sendable, Equatable {
  /// The text; `\n` starts a new line, runs of spaces collapse to one.
  package var text: String
  /// The style, body by default; title is bold.
  package var style: TextStyle
  /// The colour, or nil for the renderer's default text colour.
  package var color: ContentColor?
  /// The most lines shown (past it the last line ends with "…"), or nil for no limit.
  package var maxLines: Int?
  /// How lines of different widths line up, leading by default.
  package var alignment: HorizontalAlignment

  /// Creates a text node.
  public init(
    _ text: String, style: TextStyle = .body, color: ContentColor? = nil, maxLines: Int? = nil,
    alignment: HorizontalAlignment = .leading
  ) {
    self.text = text
    self.style = style
    self.color = color
    self.maxLines = maxLines
    self.alignment = alignment
  }
}

/// An image node: a named image at a given size.
public struct ImageNode: Sendable, Equatable {
  /// The image's name, resolved by the renderer.
  package var name: String
  /// The width in points, finite and non-negative.
  package var width: Double
  /// The height in points, finite and non-negative.
  package var height: Double

  /// Creates an image node.
  public init(name: String, width: Double, height: Double) {
    self.name = name
    self.width = width
    self.height = height
  }
}

/// The direction in which a stack lays out its children.
public enum StackAxis: String, Sendable, Equatable {
  /// Top to bottom.
  case vertical
  /// Left to right.
  case horizontal
}

/// Where children sit across a stack's axis: at its start, centre or end.
public enum StackAlignment: Sendable, Equatable {
  /// Leading edge of a vertical stack, top of a horizontal one.
  case start
  /// Centred.
  case center
  /// Trailing edge of a vertical stack, bottom of a horizontal one.
  case end
}

/// A stack node: children one after another with fixed spacing between them.
public struct StackNode: Sendable, Equatable {
  /// Vertical (top to bottom) or horizontal (left to right).
  package var axis: StackAxis
  /// The children, in order; may be empty (an empty stack has size zero).
  package var children: [ContentNode]
  /// Points between consecutive children, non-negative.
  package var spacing: Double
  /// Placement across the axis; `.start` by default.
  package var alignment: StackAlignment

  /// Creates a stack node.
  public init(
    _ axis: StackAxis, _ children: [ContentNode], spacing: Double = 0,
    alignment: StackAlignment = .start
  ) {
    self.axis = axis
    self.children = children
    self.spacing = spacing
    self.alignment = alignment
  }
}

/// A box around one node: padding inside, a background (with rounded corners)
/// behind the padded area, and bounds on the box's outer width.
public struct BoxNode: Sendable, Equatable {
  /// The decorated node.
  package var child: ContentNode
  /// Space between the box's edge and the child.
  package var padding: EdgeInsets
  /// The fill behind the box (padding included), or nil for none.
  package var background: ContentColor?
  /// The background's corner radius in points.
  package var cornerRadius: Double
  /// The least outer width; the child stays at the leading edge of a wider box.
  package var minWidth: Double?
  /// The most outer width; the child is laid out (text wrapped) to fit inside it.
  package var maxWidth: Double?

  /// Creates a box around `child`.
  public init(
    _ child: ContentNode, padding: EdgeInsets = .zero, background: ContentColor? = nil,
    cornerRadius: Double = 0, minWidth: Double? = nil, maxWidth: Double? = nil
  ) {
    self.child = child
    self.padding = padding
    self.background = background
    self.cornerRadius = cornerRadius
    self.minWidth = minWidth
    self.maxWidth = maxWidth
  }
}
