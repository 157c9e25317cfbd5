import WaymarkCore

/// True if `a` and `b` differ by less than a billionth of a point (sums of
/// advances such as 9.4 are not exact in binary).
func isClose(_ a: Double, _ b: Double) -> Bool { (a - b).magnitude < 1e-9 }

/// True if `rect` is (x, y, width, height) within ``isClose(_:_:)``.
func isClose(_ rect: Rect, _ x: Double, _ y: Double, _ width: Double, _ height: Double)
  -> Bool
{
  isClose(rect.x, x) && isClose(rect.y, y) && isClose(rect.width, width)
    && isClose(rect.height, height)
}

/// True if `size` is width by height within ``isClose(_:_:)``.
func isClose(_ size: Size, _ width: Double, _ height: Double) -> Bool {
  isClose(size.width, width) && isClose(size.height, height)
}

/// Metrics with `maxWidth` changed.
func metrics(maxWidth: Double) -> InfoWindowMetrics {
  var metrics = InfoWindowMetrics.standard
  metrics.maxWidth = maxWidth
  return metrics
}

/// The laid-out lines of a text node, or [] for any other node.
func lines(of node: LaidOutNode) -> [String] {
  guard case .text(let text) = node.element else { return [] }
  return text.lines.map(\.text)
}

/// A whole custom window laid out from a value tree, fitted into `maxWidth` (its largest
/// side: R35's 500 points in the standard metrics).
func window(_ value: ContentValue, maxWidth: Double = 280) throws -> InfoWindowLayout {
  var metrics = metrics(maxWidth: maxWidth)
  metrics.maxCustomWindowSide = maxWidth
  return InfoWindowLayout.window(try InfoWindowContent(decoding: value), metrics: metrics)
}
