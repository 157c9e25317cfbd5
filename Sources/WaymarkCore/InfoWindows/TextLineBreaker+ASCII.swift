/// The byte-by-byte line breaking of ASCII text: the same lines as the grapheme-cluster
/// path of ``TextLineBreaker``, which on ASCII text splits at the same places (every byte
/// is a character, but "\r\n", one newline), without Swift's grapheme breaking.
extension TextLineBreaker {
  /// The lines of ASCII `text` at `maxWidth`, stopping once there are more than `limit`:
  /// paragraphs at each newline (LF, VT, FF, CR, or CR LF), words between spaces and tabs.
  func asciiLines(of text: String, maxWidth: Double, stopAfter limit: Int) -> [Line] {
    assert(text.utf8.allSatisfy { $0 < 0x80 }, "byte-by-byte breaking of non-ASCII text")
    var text = text
    return text.withUTF8 { bytes in
      var lines: [Line] = []
      var current: [UInt8] = []
      var start = 0
      var index = 0
      while true {
        guard index == bytes.count || (0x0A...0x0D).contains(bytes[index]) else {
          index += 1
          continue
        }
        wrap(
          UnsafeBufferPointer(rebasing: bytes[start..<index]), maxWidth: maxWidth,
          into: &lines, current: &current, stopAfter: limit)
        if lines.count > limit || index == bytes.count { break }
        let crlf = bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A
        index += crlf ? 2 : 1
        start = index
      }
      return lines
    }
  }

  /// The ASCII counterpart of `wrap(_:maxWidth:into:stopAfter:)`, step for step (the same
  /// sums in the same order); `current` is scratch space for the line being filled.
  private func wrap(
    _ paragraph: UnsafeBufferPointer<UInt8>, maxWidth: Double, into lines: inout [Line],
    current: inout [UInt8], stopAfter limit: Int
  ) {
    let average = metrics.averageAdvances[style] ?? 7.5
    let factors = CharacterWidthClass.asciiFactors
    let space = average * factors[0x20]
    let isSeparator = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    current.removeAll(keepingCapacity: true)
    var width = 0.0
    var hasWords = false
    var position = 0
    func finishLine() {
      lines.append(Line(text: String(decoding: current, as: UTF8.self), width: width))
      current.removeAll(keepingCapacity: true)
      width = 0
    }
    while position < paragraph.count {
      if isSeparator(paragraph[position]) {
        position += 1
        continue
      }
      var end = position + 1
      while end < paragraph.count, !isSeparator(paragraph[end]) { end += 1 }
      let word = UnsafeBufferPointer(rebasing: paragraph[position..<end])
      position = end
      hasWords = true
      if lines.count > limit { return }
      var wordWidth = 0.0
      for byte in word { wordWidth += average * factors[Int(byte)] }
      if !current.isEmpty {
        if width + space + wordWidth <= maxWidth + Self.tolerance {
          current.append(0x20)
          current.append(contentsOf: word)
          width += space + wordWidth
          continue
        }
        finishLine()
      }
      // A word that fits a line whole starts the next line as it is.
      if wordWidth <= maxWidth + Self.tolerance {
        current.append(contentsOf: word)
        width = wordWidth
        continue
      }
      for byte in word {
        let advance = average * factors[Int(byte)]
        if !current.isEmpty, width + advance > maxWidth + Self.tolerance { finishLine() }
        current.append(byte)
        width += advance
      }
    }
    guard hasWords else {
      lines.append(Line(text: "", width: 0))
      return
    }
    finishLine()
  }
}
