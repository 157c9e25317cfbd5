/// Lays out a ``ContentNode`` tree at a maximum width, deterministically.
///
/// Each node takes the width it needs up to what it is offered: text wraps at the
/// offered width and is as wide as its widest line; an image wider than offered
/// is scaled down keeping its aspect ratio; a vertical stack offers every child
/// the full width; a horizontal stack offers each child what its earlier
/// children left; a box offers its child its width less its padding.
struct ContentLayoutEngine {
  let metrics: InfoWindowMetrics

  /// Lays out `node` with its top-left corner at (0, 0), at most `maxWidth` wide
  /// (wider only where a single character or a stack's fixed parts cannot fit).
  func layout(_ node: ContentNode, maxWidth: Double) -> LaidOutNode {
    let available = max(0, maxWidth)
    switch node {
    case .text(let text): return layoutText(text, maxWidth: available)
    case .image(let image): return layoutImage(image, maxWidth: available)
    case .stack(let stack): return layoutStack(stack, maxWidth: available)
    case .box(let box): return layoutBox(box, maxWidth: available)
    }
  }

  private func layoutText(_ node: TextNode, maxWidth: Double) -> LaidOutNode {
    let breaker = TextLineBreaker(metrics: metrics, style: node.style)
    let (lines, truncated) = breaker.lines(
      of: node.text, maxWidth: maxWidth, maxLines: node.maxLines)
    let lineHeight = metrics.lineHeight(for: node.style)
    let width = lines.map(\.width).max() ?? 0
    let laidOutLines = lines.enumerated().map { index, line in
      LaidOutLine(
        text: line.text,
        frame: Rect(
          x: offset(of: line.width, in: width, node.alignment),
          y: Double(index) * lineHeight, width: line.width, height: lineHeight))
    }
    let text = LaidOutText(
      style: node.style, color: node.color, fontSize: metrics.fontSize(for: node.style),
      lines: laidOutLines, isTruncated: truncated)
    return LaidOutNode(
      frame: Rect(x: 0, y: 0, width: width, height: Double(lines.count) * lineHeight),
      element: .text(text))
  }

  private func layoutImage(_ node: ImageNode, maxWidth: Double) -> LaidOutNode {
    var size = Size(width: node.width, height: node.height)
    if size.width > maxWidth {
      size = Size(width: maxWidth, height: node.height * maxWidth / node.width)
    }
    return LaidOutNode(
      frame: Rect(x: 0, y: 0, width: size.width, height: size.height),
      element: .image(name: node.name))
  }

  private func layoutStack(_ node: StackNode, maxWidth: Double) -> LaidOutNode {
    var children: [LaidOutNode] = []
    var along = 0.0
    var across = 0.0
    for (index, child) in node.children.enumerated() {
      if index > 0 { along += node.spacing }
      let offered = node.axis == .vertical ? maxWidth : maxWidth - along
      let laidOut = layout(child, maxWidth: offered)
      children.append(
        node.axis == .vertical
          ? laidOut.offsetBy(dx: 0, dy: along) : laidOut.offsetBy(dx: along, dy: 0))
      along += node.axis == .vertical ? laidOut.frame.height : laidOut.frame.width
      across = max(across, node.axis == .vertical ? laidOut.frame.width : laidOut.frame.height)
    }
    let alignment =
      node.alignment == .start
      ? HorizontalAlignment.leading
      : node.alignment == .center ? .center : .trailing
    children = children.map { child in
      if node.axis == .vertical {
        return child.offsetBy(dx: offset(of: child.frame.width, in: across, alignment), dy: 0)
      }
      return child.offsetBy(dx: 0, dy: offset(of: child.frame.height, in: across, alignment))
    }
    let size =
      node.axis == .vertical
      ? Size(width: across, height: along) : Size(width: along, height: across)
    return LaidOutNode(
      frame: Rect(x: 0, y: 0, width: size.width, height: size.height),
      element: .stack(node.axis), children: children)
  }

  private func layoutBox(_ node: BoxNode, maxWidth: Double) -> LaidOutNode {
    let outerLimit = min(maxWidth, node.maxWidth ?? .infinity)
    let child = layout(node.child, maxWidth: outerLimit - node.padding.horizontal)
    var width = child.frame.width + node.padding.horizontal
    if let minWidth = node.minWidth { width = max(width, min(minWidth, outerLimit)) }
    return LaidOutNode(
      frame: Rect(
        x: 0, y: 0, width: width, height: child.frame.height + node.padding.vertical),
      element: .box(background: node.background, cornerRadius: node.cornerRadius),
      children: [child.offsetBy(dx: node.padding.left, dy: node.padding.top)])
  }

  /// Where something `length` long starts inside `extent` under `alignment`.
  private func offset(of length: Double, in extent: Double, _ alignment: HorizontalAlignment)
    -> Double
  {
    switch alignment {
    case .leading: 0
    case .center: (extent - length) / 2
    case .trailing: extent - length
    }
  }
}
