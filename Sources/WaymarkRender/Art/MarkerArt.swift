import WaymarkCore

/// What a marker's icon shows, as Waymark draws it: the default pin in a colour, a labelled
/// box for an image (or a frame of a multi-frame icon: R48), or a filled box for an icon view.
/// A new kind of marker drawing is a new case here and its arm in ``MarkerArt``.
enum MarkerLook: Hashable {
  /// A pin of `color` (`#RRGGBB`).
  case pin(color: String, size: Size)
  /// An image Waymark knows by name and size.
  case image(name: String, size: Size)
  /// An icon view, filled with its tint (`#RRGGBB`).
  case view(name: String, size: Size, fill: String)
  /// A cluster marker (R63): a circle of `color` with its white `label` ("9", "10+").
  case cluster(label: String, color: String, size: Size)

  /// The icon's whole size, its insets included.
  var size: Size {
    switch self {
    case .pin(_, let size), .image(_, let size), .view(_, let size, _), .cluster(_, _, let size): size
    }
  }
}

/// How a marker's icon is drawn, in the icon's own coordinates: the box from (0, 0) to its
/// size. Drawn once per look into a ``MarkerSprite``, which every renderer places.
enum MarkerArt {
  /// The shared definitions of every picture: the pin and the info window's shadow.
  static let definitions =
    "<defs>"
    + "<symbol id=\"wm-pin\" viewBox=\"0 0 27 43\">"
    + "<path d=\"M13.5 42.5C12.2 35.6 6 29.6 3.9 21.5A12.5 12.5 0 1 1 23.1 21.5C21 29.6 14.8 35.6 13.5 42.5Z\""
    + " stroke=\"#000\" stroke-opacity=\".28\" stroke-width=\"1\"/>"
    + "<circle cx=\"13.5\" cy=\"13.5\" r=\"4.6\" fill=\"#000\" fill-opacity=\".38\"/>"
    + "</symbol>"
    + "<filter id=\"wm-shadow\" x=\"-20%\" y=\"-20%\" width=\"140%\" height=\"150%\">"
    + "<feGaussianBlur in=\"SourceAlpha\" stdDeviation=\"2\"/><feOffset dy=\"1.5\"/>"
    + "<feComponentTransfer><feFuncA type=\"linear\" slope=\".3\"/></feComponentTransfer>"
    + "<feMerge><feMergeNode/><feMergeNode in=\"SourceGraphic\"/></feMerge></filter>"
    + "</defs>"

  /// Appends the drawing of `look` in its own box, from (0, 0) to its size, with a
  /// highlight of the box when selected.
  static func append(_ look: MarkerLook, selected: Bool, to buffer: inout SVGBuffer) {
    let size = look.size
    if selected {
      buffer.raw("<rect class=\"selection\" x=\"-3\" y=\"-3\"")
      buffer.attribute("width", size.width + 6)
      buffer.attribute("height", size.height + 6)
      buffer.raw(
        " rx=\"5\" fill=\"\(Palette.accent)\" fill-opacity=\".14\" stroke=\"\(Palette.accent)\" stroke-width=\"2\"/>")
    }
    switch look {
    case .pin(let color, _): appendPin(color, size: size, to: &buffer)
    case .image(let name, _):
      appendBox(size: size, label: name, outline: Palette.placeholderStroke, dashed: true, to: &buffer)
    case .view(let name, _, let fill):
      appendBox(size: size, label: name, outline: Palette.accent, dashed: false, fill: fill, to: &buffer)
    case .cluster(let label, let color, _): appendCluster(label, color: color, size: size, to: &buffer)
    }
  }

  /// GMUDefaultClusterIconGenerator's icon: a filled circle as wide as the box, the label
  /// bold, white and centred (R63).
  private static func appendCluster(_ label: String, color: String, size: Size, to buffer: inout SVGBuffer) {
    buffer.raw("<circle class=\"cluster\"")
    buffer.attribute("cx", size.width / 2)
    buffer.attribute("cy", size.height / 2)
    buffer.attribute("r", min(size.width, size.height) / 2)
    buffer.attribute("fill", color)
    buffer.raw("/><text class=\"cluster-label\"")
    buffer.attribute("x", size.width / 2)
    buffer.attribute("y", size.height / 2 + 14 * 0.35)
    buffer.raw(" font-size=\"14\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#ffffff\">")
    buffer.escaped(label)
    buffer.raw("</text>")
  }

  private static func appendPin(_ color: String, size: Size, to buffer: inout SVGBuffer) {
    buffer.raw("<use href=\"#wm-pin\"")
    buffer.attribute("width", size.width)
    buffer.attribute("height", size.height)
    buffer.attribute("fill", color)
    buffer.raw("/>")
  }

  /// A box standing in for something Waymark knows only by name and size (an icon view's tint
  /// fills it), its name inside.
  private static func appendBox(
    size: Size, label: String, outline: String, dashed: Bool, fill: String = Palette.placeholder,
    to buffer: inout SVGBuffer
  ) {
    buffer.raw("<rect")
    buffer.attribute("width", size.width)
    buffer.attribute("height", size.height)
    buffer.attribute("rx", min(4, size.width / 4, size.height / 4))
    buffer.raw(" fill=\"\(fill)\" fill-opacity=\".92\"")
    buffer.attribute("stroke", outline)
    buffer.raw(dashed ? " stroke-width=\"1\" stroke-dasharray=\"3 2\"/>" : " stroke-width=\"1.5\"/>")
    appendLabel(label, in: Rect(x: 0, y: 0, width: size.width, height: size.height), to: &buffer)
  }

  /// The name of a placeholder, centred in `rect`, shortened with "…" to fit its width.
  static func appendLabel(_ label: String, in rect: Rect, to buffer: inout SVGBuffer) {
    let fontSize = min(11, max(6, rect.height * 0.45))
    let fitting = Int((rect.width - 4) / (fontSize * 0.6))
    guard fitting >= 1, !label.isEmpty else { return }
    let shown = label.count <= fitting ? label : String(label.prefix(max(1, fitting - 1))) + "…"
    buffer.raw("<text class=\"label\"")
    buffer.attribute("x", rect.midX)
    buffer.attribute("y", rect.midY + fontSize * 0.35)
    buffer.attribute("font-size", fontSize)
    buffer.raw(" text-anchor=\"middle\" fill=\"\(Palette.secondaryText)\">")
    buffer.escaped(shown)
    buffer.raw("</text>")
  }
}
