import WaymarkCore

/// The text of a laid-out window: its lines, top to bottom, as the SVG's `<text>` elements
/// hold them (a scene window's text: what `waymarkReplay.state()` and the live map's `/state`
/// call its text).
enum InfoWindowText {
  /// The non-empty text lines of `layout`, top to bottom.
  static func lines(of layout: InfoWindowLayout) -> [String] {
    var lines: [String] = []
    func walk(_ node: LaidOutNode) {
      if case .text(let text) = node.element { lines += text.lines.map(\.text).filter { !$0.isEmpty } }
      node.children.forEach(walk)
    }
    walk(layout.content)
    return lines
  }
}
