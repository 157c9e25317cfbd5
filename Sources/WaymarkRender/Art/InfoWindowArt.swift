import WaymarkCore

/// How an info window is drawn, in the window's own coordinates (points from its top-left,
/// as ``InfoWindowLayout`` lays it out): the default frame with its tail, boxes, text lines
/// and images as labelled boxes of their size. The SVG snapshot and the replay page draw
/// the same markup.
///
/// The window's group holds its text as `<text>` elements, one per laid-out line, and
/// nothing else as text: the names of images go in a separate group drawn over it, so that
/// the window's text is exactly what the plugin wrote.
enum InfoWindowArt {
  /// Appends the window's drawing to `body` and its images' names to `labels`.
  /// A custom window cut at its largest side (R35) is drawn clipped to its size.
  static func append(_ layout: InfoWindowLayout, body: inout SVGBuffer, labels: inout SVGBuffer) {
    if let frame = layout.frame { appendFrame(frame, to: &body) }
    guard layout.isCut else {
      return append(layout.content, halo: layout.frame == nil, body: &body, labels: &labels)
    }
    var cutLabels = SVGBuffer(capacity: 256)
    openClip(layout.size, &body)
    append(layout.content, halo: layout.frame == nil, body: &body, labels: &cutLabels)
    body.raw("</svg>")
    guard !cutLabels.bytes.isEmpty else { return }
    openClip(layout.size, &labels)
    labels.raw(cutLabels.text)
    labels.raw("</svg>")
  }

  /// Opens a nested `<svg>` of the window's size, which clips what it holds to it.
  private static func openClip(_ size: Size, _ buffer: inout SVGBuffer) {
    buffer.raw("<svg class=\"cut\"")
    buffer.attribute("width", size.width)
    buffer.attribute("height", size.height)
    buffer.raw(" overflow=\"hidden\">")
  }

  /// The rounded rectangle and its tail as one path, so the shadow falls under both.
  private static func appendFrame(_ frame: InfoWindowFrame, to buffer: inout SVGBuffer) {
    let body = frame.body, tail = frame.tail
    let r = min(frame.cornerRadius, body.width / 2, body.height / 2)
    func command(_ letter: StaticString, _ values: Double...) {
      buffer.raw(letter)
      for (index, value) in values.enumerated() {
        if index > 0 { buffer.byte(UInt8(ascii: " ")) }
        buffer.number(value)
      }
    }
    func arc(_ x: Double, _ y: Double) {
      command("A", r, r)
      buffer.raw(" 0 0 1 ")
      buffer.number(x)
      buffer.byte(UInt8(ascii: " "))
      buffer.number(y)
    }
    buffer.raw("<path class=\"frame\" d=\"")
    command("M", body.minX + r, body.minY)
    command("H", body.maxX - r)
    arc(body.maxX, body.minY + r)
    command("V", body.maxY - r)
    arc(body.maxX - r, body.maxY)
    command("H", tail.maxX)
    command("L", tail.midX, tail.maxY)
    command("L", tail.minX, body.maxY)
    command("H", body.minX + r)
    arc(body.minX, body.maxY - r)
    command("V", body.minY + r)
    arc(body.minX + r, body.minY)
    buffer.raw("Z\"")
    Palette.appendFill(frame.background, to: &buffer)
    buffer.raw(" stroke=\"#000\" stroke-opacity=\".12\" filter=\"url(#wm-shadow)\"/>")
  }

  private static func append(_ node: LaidOutNode, halo: Bool, body: inout SVGBuffer, labels: inout SVGBuffer) {
    switch node.element {
    case .box(let background, let cornerRadius):
      if let background {
        body.raw("<rect")
        body.attribute("x", node.frame.x)
        body.attribute("y", node.frame.y)
        body.attribute("width", node.frame.width)
        body.attribute("height", node.frame.height)
        if cornerRadius > 0 { body.attribute("rx", cornerRadius) }
        Palette.appendFill(background, to: &body)
        body.raw("/>")
      }
    case .stack: break
    case .image(let name):
      body.raw("<rect class=\"image\"")
      body.attribute("x", node.frame.x)
      body.attribute("y", node.frame.y)
      body.attribute("width", node.frame.width)
      body.attribute("height", node.frame.height)
      body.raw(" rx=\"3\" fill=\"\(Palette.placeholder)\" stroke=\"\(Palette.placeholderStroke)\"")
      body.raw(" stroke-width=\"1\" stroke-dasharray=\"3 2\"/>")
      MarkerArt.appendLabel(name, in: node.frame, to: &labels)
    case .text(let text):
      for line in text.lines where !line.text.isEmpty { appendLine(line, of: text, halo: halo, to: &body) }
    }
    for child in node.children { append(child, halo: halo, body: &body, labels: &labels) }
  }

  /// One line of text, stretched or squeezed to the width the layout engine measured, so
  /// that it fits its box whatever font the viewer has.
  private static func appendLine(_ line: LaidOutLine, of text: LaidOutText, halo: Bool, to buffer: inout SVGBuffer) {
    buffer.raw("<text")
    buffer.attribute("x", line.frame.x)
    buffer.attribute("y", line.frame.midY + text.fontSize * 0.35)
    buffer.attribute("font-size", text.fontSize)
    if text.style == .title { buffer.raw(" font-weight=\"600\"") }
    if let color = text.color {
      Palette.appendFill(color, to: &buffer)
    } else {
      buffer.attribute("fill", text.style == .caption ? Palette.secondaryText : Palette.text)
    }
    if halo { buffer.raw(" stroke=\"#FFF\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"") }
    buffer.attribute("textLength", line.frame.width)
    buffer.raw(" lengthAdjust=\"spacingAndGlyphs\">")
    buffer.escaped(line.text)
    buffer.raw("</text>")
  }
}
