/// The three kinds of info window of rule R7.
public enum InfoWindowKind: Sendable, Equatable {
  /// A whole custom window from `marker_info_window`, laid out as given, no frame.
  case window
  /// Custom contents from `marker_info_contents`, inside the default frame.
  case contents
  /// The default window: the marker's title (bold) and snippet in the default frame.
  case `default`
}

/// The default frame around `.contents` and `.default` windows: a rounded
/// rectangle with a tail (a downward arrow) centred under it.
package struct InfoWindowFrame: Sendable, Equatable {
  /// The rounded rectangle, from the window's top-left corner.
  package var body: Rect
  /// The bounding box of the tail: its base is the top edge, its tip the bottom centre.
  package var tail: Rect
  /// The corner radius of the rectangle.
  package var cornerRadius: Double
  /// The fill of rectangle and tail.
  package var background: ContentColor

  /// Creates a frame description.
  package init(body: Rect, tail: Rect, cornerRadius: Double, background: ContentColor) {
    self.body = body
    self.tail = tail
    self.cornerRadius = cornerRadius
    self.background = background
  }
}

/// A laid-out info window: its overall size, its frame (if any), and the frame
/// of every content node, in window coordinates (points from the top-left, y down).
///
/// Build one with ``window(_:metrics:)``, ``contents(_:metrics:)`` or
/// ``defaultWindow(title:snippet:metrics:)``, per rule R7. The map places the
/// window so that ``anchor`` sits on the marker's info-window anchor, and sends
/// taps for which ``contains(_:)`` is true to `did_tap_info_window` (rule R16).
package struct InfoWindowLayout: Sendable, Equatable {
  /// Which kind of window this is.
  package var kind: InfoWindowKind
  /// The whole window, the default frame's tail included.
  package var size: Size
  /// The default frame, or nil for a whole custom window.
  package var frame: InfoWindowFrame?
  /// The content's root node (for `.default`, the title and snippet).
  package var content: LaidOutNode

  /// Creates a layout from its parts; use the static builders instead.
  package init(kind: InfoWindowKind, size: Size, frame: InfoWindowFrame?, content: LaidOutNode) {
    self.kind = kind
    self.size = size
    self.frame = frame
    self.content = content
  }

  /// The tappable rectangle: the frame's body (the tail excluded), or the whole window.
  package var bodyRect: Rect {
    frame?.body ?? Rect(x: 0, y: 0, width: size.width, height: size.height)
  }

  /// The bottom centre of the window (the tail's tip, if any), which sits on the marker.
  package var anchor: Point { Point(x: size.width / 2, y: size.height) }

  /// True if `point` (window coordinates) falls on the window's body rectangle.
  package func contains(_ point: Point) -> Bool { bodyRect.contains(point) }

  // MARK: - Building

  /// A whole custom window (`marker_info_window`): the content laid out as given, with no
  /// frame, keeping its own size up to `metrics.maxCustomWindowSide` (500 points) on either
  /// side (R35): wider content is fitted into that width as in any window (text wraps,
  /// images scale down, widths cap), taller content is cut at that height (``isCut``).
  package static func window(_ content: InfoWindowContent, metrics: InfoWindowMetrics = .standard)
    -> InfoWindowLayout
  {
    let side = metrics.maxCustomWindowSide
    let root = ContentLayoutEngine(metrics: metrics).layout(content.root, maxWidth: side)
    let size = Size(width: min(root.frame.width, side), height: min(root.frame.height, side))
    return InfoWindowLayout(kind: .window, size: size, frame: nil, content: root)
  }

  /// Whether the content is taller than the window, which cut it (R35): drawn clipped to the
  /// window, the part below out of reach of taps.
  package var isCut: Bool { content.frame.height > size.height }

  /// Custom contents (`marker_info_contents`) inside the default frame: the frame
  /// padding around them, the tail below, `metrics.maxWidth` wide at most.
  package static func contents(_ content: InfoWindowContent, metrics: InfoWindowMetrics = .standard)
    -> InfoWindowLayout
  {
    framed(content.root, kind: .contents, metrics: metrics)
  }

  /// The default window (R7): the title in title style (bold, at most
  /// `metrics.maxTitleLines` lines), the snippet under it in body style (at most
  /// `metrics.maxSnippetLines` lines), wrapped and then truncated with "…", in the
  /// default frame. A blank text (empty or only white space) counts as none; nil if both
  /// are blank or nil: no default window is shown.
  ///
  /// ASCII words that fit on one line (`Marker 42`) take ``DefaultWindowLayout``, which
  /// gives the same layout without the content tree.
  package static func defaultWindow(title: String?, snippet: String?) -> InfoWindowLayout? {
    if let layout = DefaultWindowLayout.standard.layout(title: title, snippet: snippet) { return layout }
    return generalDefaultWindow(title: title, snippet: snippet, metrics: .standard)
  }

  /// The default window (R7) with `metrics`: see ``defaultWindow(title:snippet:)``.
  package static func defaultWindow(title: String?, snippet: String?, metrics: InfoWindowMetrics)
    -> InfoWindowLayout?
  {
    if let layout = DefaultWindowLayout(metrics: metrics).layout(title: title, snippet: snippet) { return layout }
    return generalDefaultWindow(title: title, snippet: snippet, metrics: metrics)
  }

  /// The default window laid out through the content tree, whatever its text: the
  /// reference ``DefaultWindowLayout`` is compared with.
  static func generalDefaultWindow(title: String?, snippet: String?, metrics: InfoWindowMetrics)
    -> InfoWindowLayout?
  {
    var parts: [ContentNode] = []
    if let title, !isBlank(title) {
      parts.append(.text(TextNode(title, style: .title, maxLines: max(1, metrics.maxTitleLines))))
    }
    if let snippet, !isBlank(snippet) {
      parts.append(
        .text(TextNode(snippet, style: .body, maxLines: max(1, metrics.maxSnippetLines))))
    }
    guard !parts.isEmpty else { return nil }
    let root =
      parts.count == 1
      ? parts[0] : .stack(StackNode(.vertical, parts, spacing: metrics.titleSnippetSpacing))
    return framed(root, kind: .default, metrics: metrics)
  }

  /// Whether `text` is blank: empty or only white space (spaces, tabs, line breaks, and the
  /// other Unicode white space).
  package static func isBlank(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
  }

  /// `root` inside the default frame. The body is at least wide enough for the
  /// tail and both corners (`tailWidth + 2 * frameCornerRadius`).
  private static func framed(_ root: ContentNode, kind: InfoWindowKind, metrics: InfoWindowMetrics)
    -> InfoWindowLayout
  {
    let padding = metrics.framePadding
    let laidOut = ContentLayoutEngine(metrics: metrics)
      .layout(root, maxWidth: metrics.maxWidth - padding.horizontal)
      .offsetBy(dx: padding.left, dy: padding.top)
    return framed(laidOut: laidOut, kind: kind, metrics: metrics)
  }

  /// Content already laid out and moved inside the frame's padding, in the default frame.
  static func framed(laidOut: consuming LaidOutNode, kind: InfoWindowKind, metrics: InfoWindowMetrics)
    -> InfoWindowLayout
  {
    let padding = metrics.framePadding
    let body = Rect(
      x: 0, y: 0,
      width: max(
        laidOut.frame.width + padding.horizontal,
        metrics.tailWidth + 2 * metrics.frameCornerRadius),
      height: laidOut.frame.height + padding.vertical)
    let tail = Rect(
      x: body.midX - metrics.tailWidth / 2, y: body.maxY, width: metrics.tailWidth,
      height: metrics.tailHeight)
    let frame = InfoWindowFrame(
      body: body, tail: tail, cornerRadius: metrics.frameCornerRadius,
      background: metrics.frameBackground)
    return InfoWindowLayout(
      kind: kind, size: Size(width: body.width, height: body.height + metrics.tailHeight),
      frame: frame, content: laidOut)
  }
}
