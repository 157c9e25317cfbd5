/// The default window (R7) in its common case, laid out without the content tree: a title
/// and a snippet (either may be absent) of ASCII words separated by single spaces that each
/// fit on one line, such as `Marker 42`.
///
/// It computes the same ``InfoWindowLayout`` as ``InfoWindowLayout/framed`` over
/// ``ContentLayoutEngine`` and ``TextLineBreaker`` do, value for value: the same sums of
/// the same advances in the same order, the same offsets applied the same way, but with the
/// metrics' tables read once, no scratch buffers, the text kept as it is, and no allocation
/// but the arrays the layout holds. Every other text (non-ASCII, blank, several lines, tabs, runs of
/// spaces) gives nil, and the general path lays it out; `DefaultWindowLayoutTests` compares
/// both paths on thousands of random titles and snippets.
struct DefaultWindowLayout {
  /// What one text style needs: its average advance, font size and line height.
  private struct Style {
    let style: TextStyle
    let average: Double
    let fontSize: Double
    let lineHeight: Double

    init(_ style: TextStyle, metrics: InfoWindowMetrics) {
      self.style = style
      average = metrics.averageAdvances[style] ?? 7.5
      fontSize = metrics.fontSize(for: style)
      lineHeight = metrics.lineHeight(for: style)
    }
  }

  /// One text measured: it fits on one line of this width.
  private struct OneLine {
    let text: String
    let width: Double
  }

  private let metrics: InfoWindowMetrics
  private let title: Style
  private let body: Style
  /// The width offered to the content: inside the frame's padding.
  private let contentWidth: Double

  /// The layout of the standard metrics (the map's), made once.
  static let standard = DefaultWindowLayout(metrics: .standard)

  /// Reads what the default window needs of `metrics`.
  init(metrics: InfoWindowMetrics) {
    self.metrics = metrics
    title = Style(.title, metrics: metrics)
    body = Style(.body, metrics: metrics)
    contentWidth = max(0, metrics.maxWidth - metrics.framePadding.horizontal)
  }

  /// The default window of `title` and `snippet` if both are absent (nil or empty) or fit
  /// the common case; `.some(nil)` means no window (both absent), nil that the general
  /// path must lay them out. A window of one text fills `lines` (a buffer nobody else
  /// holds) with its line, if given, instead of allocating one.
  func layout(title: String?, snippet: String?, reusing lines: consuming [LaidOutLine]? = nil) -> InfoWindowLayout?? {
    guard let first = oneLine(title, self.title), let second = oneLine(snippet, body) else { return nil }
    let padding = (dx: metrics.framePadding.left, dy: metrics.framePadding.top)
    let content: LaidOutNode
    switch (first, second) {
    case (nil, nil): return .some(nil)
    case (let text?, nil): content = node(text, self.title, moves: (0, 0), padding, reusing: lines)
    case (nil, let text?): content = node(text, body, moves: (0, 0), padding, reusing: lines)
    case (let titleLine?, let snippetLine?):
      // A vertical stack: the snippet moved under the title, then both into the frame.
      let titleNode = node(titleLine, self.title, moves: (0, 0), padding, reusing: lines)
      var along = 0.0
      along += Double(1) * self.title.lineHeight
      along += metrics.titleSnippetSpacing
      let snippetNode = node(snippetLine, body, moves: (0, along), padding)
      let across = max(max(0, titleLine.width), snippetLine.width)
      along += Double(1) * body.lineHeight
      content = LaidOutNode(
        frame: Self.moved(Rect(x: 0, y: 0, width: across, height: along), padding),
        element: .stack(.vertical), children: [titleNode, snippetNode])
    }
    return .some(InfoWindowLayout.framed(laidOut: content, kind: .default, metrics: metrics))
  }

  /// A text node of one line laid out at (0, 0), then moved twice as
  /// ``LaidOutNode/offsetBy(dx:dy:)`` would move it (leading alignment, no colour, not
  /// truncated), its line in `buffer` if given (emptied first), else in a new array.
  private func node(
    _ line: OneLine, _ style: Style, moves first: (dx: Double, dy: Double), _ second: (dx: Double, dy: Double),
    reusing buffer: consuming [LaidOutLine]? = nil
  )
    -> LaidOutNode
  {
    let lineFrame = Rect(x: 0, y: Double(0) * style.lineHeight, width: line.width, height: style.lineHeight)
    let laidOut = LaidOutLine(text: line.text, frame: Self.moved(Self.moved(lineFrame, first), second))
    let lines: [LaidOutLine]
    if var reused = buffer.take() {
      // One line replaced in place costs a store; emptying and appending cost 150.
      if reused.count == 1 {
        reused[0] = laidOut
      } else {
        reused.removeAll(keepingCapacity: true)
        reused.append(laidOut)
      }
      lines = reused
    } else {
      lines = [laidOut]
    }
    let text = LaidOutText(
      style: style.style, color: nil, fontSize: style.fontSize, lines: lines, isTruncated: false)
    let frame = Rect(x: 0, y: 0, width: line.width, height: Double(1) * style.lineHeight)
    return LaidOutNode(frame: Self.moved(Self.moved(frame, first), second), element: .text(text))
  }

  /// `rect` moved as ``LaidOutNode/offsetBy(dx:dy:)`` moves it: not at all by (0, 0).
  private static func moved(_ rect: Rect, _ offset: (dx: Double, dy: Double)) -> Rect {
    offset.dx != 0 || offset.dy != 0 ? rect.offsetBy(dx: offset.dx, dy: offset.dy) : rect
  }

  /// `text` measured if it is ASCII words separated by single spaces that fit on one line
  /// at ``contentWidth``: `.some(nil)` for nil or empty text, nil for any other text.
  private func oneLine(_ text: String?, _ style: Style) -> OneLine?? {
    guard let text, !text.isEmpty else { return .some(nil) }
    // The bytes in place (a short title lives inside the string itself): reading them one
    // at a time through the UTF-8 view cost twice as much.
    let measured =
      text.utf8.withContiguousStorageIfAvailable { oneLineWidth(of: $0, style) } ?? oneLineWidth(of: text.utf8, style)
    guard let width = measured else { return nil }
    return .some(OneLine(text: text, width: width))
  }

  /// The width of the UTF-8 `bytes` of a text if they are ASCII words separated by single
  /// spaces that fit on one line at ``contentWidth``, else nil.
  ///
  /// The fit decisions are the line breaker's (each word's advances summed from zero, the
  /// line grown by a space and the word); the width is the fresh sum of every character's
  /// advance that the breaker measures its lines with.
  private func oneLineWidth<Bytes: Sequence<UInt8>>(of bytes: Bytes, _ style: Style) -> Double? {
    let limit = contentWidth + TextLineBreaker.tolerance
    let factors = CharacterWidthClass.asciiFactors
    let average = style.average
    let space = average * factors[0x20]
    var width = 0.0
    var line = 0.0
    var word = 0.0
    var words = 0
    var afterSpace = true
    for byte in bytes {
      if byte == 0x20 {
        guard !afterSpace, Self.fits(word, after: &line, words: &words, space: space, limit: limit) else { return nil }
        word = 0
        afterSpace = true
      } else {
        guard byte < 0x80, byte != 0x09, !(0x0A...0x0D).contains(byte) else { return nil }
        word += average * factors[Int(byte)]
        afterSpace = false
      }
      width += average * factors[Int(byte)]
    }
    guard !afterSpace, Self.fits(word, after: &line, words: &words, space: space, limit: limit) else { return nil }
    return width
  }

  /// Whether a word `word` wide still fits on the line `line` wide holding `words` words, as
  /// the line breaker decides it; if so, the line grows by it.
  private static func fits(_ word: Double, after line: inout Double, words: inout Int, space: Double, limit: Double)
    -> Bool
  {
    if words == 0 {
      guard word <= limit else { return false }
      line = word
    } else {
      guard line + space + word <= limit else { return false }
      line += space + word
    }
    words += 1
    return true
  }
}
