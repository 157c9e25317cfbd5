/// Breaks text into lines at a maximum width with ``InfoWindowMetrics``' character
/// advances: greedy word wrapping, explicit newlines, a hard break inside a word
/// wider than the line, and an ellipsis past the line limit.
struct TextLineBreaker {
  /// One laid-out line: its text and its width in points.
  struct Line: Equatable {
    var text: String
    var width: Double
  }

  /// Slack on width comparisons so that a sum of advances equal to the width fits.
  static let tolerance = 1e-9

  let metrics: InfoWindowMetrics
  let style: TextStyle

  /// The lines of `text` at `maxWidth` (at least one character per line), and
  /// whether some were cut to honour `maxLines` (nil: no limit).
  ///
  /// Each newline starts a line; spaces and tabs separate words, and a run of
  /// them becomes one space; empty text has no lines.
  func lines(of text: String, maxWidth: Double, maxLines: Int?) -> (lines: [Line], truncated: Bool) {
    lines(
      of: text, maxWidth: maxWidth, maxLines: maxLines,
      byBytes: text.utf8.allSatisfy { $0 < 0x80 })
  }

  /// The same lines, walking the text byte by byte when `byBytes` (ASCII text only: each
  /// byte is a character, but "\r\n") or by grapheme cluster otherwise; both give the same
  /// result on ASCII text, the first without grapheme breaking.
  func lines(of text: String, maxWidth: Double, maxLines: Int?, byBytes: Bool)
    -> (lines: [Line], truncated: Bool)
  {
    guard !text.isEmpty else { return ([], false) }
    let limit = maxLines ?? Int.max
    var lines: [Line] = []
    if byBytes {
      lines = asciiLines(of: text, maxWidth: maxWidth, stopAfter: limit)
    } else {
      for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
        wrap(paragraph, maxWidth: maxWidth, into: &lines, stopAfter: limit)
        if lines.count > limit { break }
      }
    }
    // Widths summed word by word may differ in the last bit from a fresh sum.
    for index in lines.indices {
      lines[index].width = metrics.width(of: lines[index].text, style: style)
    }
    guard lines.count > limit else { return (lines, false) }
    lines.removeLast(lines.count - limit)
    if let last = lines.popLast() {
      lines.append(ellipsized(last.text, maxWidth: maxWidth))
    }
    return (lines, true)
  }

  private func wrap(
    _ paragraph: Substring, maxWidth: Double, into lines: inout [Line], stopAfter limit: Int
  ) {
    let words = paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard !words.isEmpty else {
      lines.append(Line(text: "", width: 0))
      return
    }
    let space = metrics.advance(of: " ", style: style)
    var current = Line(text: "", width: 0)
    for word in words {
      if lines.count > limit { return }
      let wordWidth = metrics.width(of: word, style: style)
      if !current.text.isEmpty {
        if current.width + space + wordWidth <= maxWidth + Self.tolerance {
          current.text += " " + word
          current.width += space + wordWidth
          continue
        }
        lines.append(current)
      }
      // A word that fits a line whole starts the next line as it is.
      if wordWidth <= maxWidth + Self.tolerance {
        current = Line(text: String(word), width: wordWidth)
        continue
      }
      current = Line(text: "", width: 0)
      for character in word {
        let advance = metrics.advance(of: character, style: style)
        if !current.text.isEmpty, current.width + advance > maxWidth + Self.tolerance {
          lines.append(current)
          current = Line(text: "", width: 0)
        }
        current.text.append(character)
        current.width += advance
      }
    }
    lines.append(current)
  }

  /// `text` shortened from the end until it and a trailing "…" fit in `maxWidth`
  /// (the ellipsis alone if nothing fits), trailing spaces dropped.
  private func ellipsized(_ text: String, maxWidth: Double) -> Line {
    let ellipsis = metrics.advance(of: "…", style: style)
    var kept = Array(text)
    var width = metrics.width(of: text, style: style)
    while !kept.isEmpty,
      kept.last == " " || width + ellipsis > maxWidth + Self.tolerance
    {
      width -= metrics.advance(of: kept.removeLast(), style: style)
    }
    let shown = String(kept) + "…"
    return Line(text: shown, width: metrics.width(of: shown, style: style))
  }
}
