/// A token of Lua 5.4 source, with the line it starts on.
package struct LuaToken: Equatable {
  /// What kind of token it is.
  package enum Kind: Equatable {
    /// A name (identifier) that is not a keyword.
    case name
    /// A reserved word (`local`, `function`, `end`, ...).
    case keyword
    /// A numeral; ``LuaToken/number`` holds its value.
    case number
    /// A string literal, short or long; ``LuaToken/text`` holds its decoded value.
    case string
    /// An operator or punctuation (`==`, `..`, `(`, `::`, ...).
    case symbol
    /// The end of the source.
    case end
  }

  /// What the token is.
  package let kind: Kind
  /// The name, keyword or symbol as written; the decoded value of a string.
  package let text: String
  /// The value of a numeral (integers too, as a double: the checker needs no more).
  var number: Double = 0
  /// The 1-based line where the token starts.
  let line: Int
  /// The byte offset in the source where the token starts.
  package var offset = 0
}

/// A syntax error found by ``LuaLexer`` or ``LuaParser``: the line and what is wrong.
package struct LuaSyntaxError: Error, Equatable {
  let line: Int
  let message: String
}

/// Turns Lua 5.4 source into tokens (the manual's section 3.1): names, the 22 reserved
/// words, numerals (decimal and hexadecimal, with fractions and exponents), short strings
/// with every escape, long strings and comments of any level, and every operator.
package struct LuaLexer {
  /// The reserved words, which are never names.
  package static let keywords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
    "not", "or", "repeat", "return", "then", "true", "until", "while",
  ]
  private static let symbols3: Set<String> = ["..."]
  private static let symbols2: Set<String> = ["==", "~=", "<=", ">=", "//", "::", "<<", ">>", ".."]
  private static let symbols1: Set<UInt8> = Set("+-*/%^#&~|<>=(){}[];:,.".utf8)

  private let bytes: [UInt8]
  private var position = 0
  private var line = 1

  init(_ source: LuaSource) {
    bytes = source.bytes
  }

  /// Every token of the source, ending with an ``LuaToken/Kind/end`` token.
  package static func tokens(_ source: LuaSource) throws(LuaSyntaxError) -> [LuaToken] {
    var lexer = LuaLexer(source)
    var tokens: [LuaToken] = []
    while true {
      let token = try lexer.next()
      tokens.append(token)
      if token.kind == .end { return tokens }
    }
  }

  private func peek(_ offset: Int = 0) -> UInt8 {
    position + offset < bytes.count ? bytes[position + offset] : 0
  }

  private mutating func newline() {
    // \n, \r, \r\n and \n\r each count as one line break.
    let first = peek()
    position += 1
    if (peek() == 10 || peek() == 13), peek() != first { position += 1 }
    line += 1
  }

  mutating func next() throws(LuaSyntaxError) -> LuaToken {
    while position < bytes.count {
      let byte = peek()
      switch byte {
      case 10, 13: newline()
      case 32, 9, 11, 12: position += 1
      case UInt8(ascii: "-") where peek(1) == UInt8(ascii: "-"):
        position += 2
        if peek() == UInt8(ascii: "["), let level = longBracketLevel() {
          _ = try longString(level: level, what: "comment")
        } else {
          while position < bytes.count, peek() != 10, peek() != 13 { position += 1 }
        }
      default:
        let begin = position
        var token = try token(startingWith: byte)
        token.offset = begin
        return token
      }
    }
    return LuaToken(kind: .end, text: "<eof>", line: line, offset: bytes.count)
  }

  private mutating func token(startingWith byte: UInt8) throws(LuaSyntaxError) -> LuaToken {
    let start = line
    if Self.isNameStart(byte) {
      let begin = position
      while position < bytes.count, Self.isNameStart(peek()) || Self.isDigit(peek()) { position += 1 }
      let word = String(decoding: bytes[begin..<position], as: UTF8.self)
      return LuaToken(kind: Self.keywords.contains(word) ? .keyword : .name, text: word, line: start)
    }
    if Self.isDigit(byte) || (byte == UInt8(ascii: ".") && Self.isDigit(peek(1))) { return try numeral() }
    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { return try shortString(quote: byte) }
    if byte == UInt8(ascii: "["), let level = longBracketLevel() {
      return LuaToken(kind: .string, text: try longString(level: level, what: "string"), line: start)
    }
    for length in [3, 2] where position + length <= bytes.count {
      let text = String(decoding: bytes[position..<position + length], as: UTF8.self)
      if (length == 3 ? Self.symbols3 : Self.symbols2).contains(text) {
        position += length
        return LuaToken(kind: .symbol, text: text, line: start)
      }
    }
    if Self.symbols1.contains(byte) {
      position += 1
      return LuaToken(kind: .symbol, text: String(UnicodeScalar(byte)), line: start)
    }
    // As Lua writes a byte it does not print (a control character, any byte past 127).
    let shown = (32..<127).contains(byte) ? String(UnicodeScalar(byte)) : "<\\\(byte)>"
    throw LuaSyntaxError(line: start, message: "unexpected symbol near '\(shown)'")
  }

  /// At `[`: the level of a long bracket `[==[` (consumed), or nil (nothing consumed).
  private mutating func longBracketLevel() -> Int? {
    var offset = 1
    while peek(offset) == UInt8(ascii: "=") { offset += 1 }
    guard peek(offset) == UInt8(ascii: "[") else { return nil }
    position += offset + 1
    return offset - 1
  }

  /// The text of a long string or comment after its opening bracket, up to `]==]`.
  private mutating func longString(level: Int, what: String) throws(LuaSyntaxError) -> String {
    let start = line
    var out: [UInt8] = []
    // A line break right after the opening bracket is not part of the string.
    if peek() == 10 || peek() == 13 { newline() }
    while position < bytes.count {
      let byte = peek()
      if byte == UInt8(ascii: "]") {
        var offset = 1
        while peek(offset) == UInt8(ascii: "=") { offset += 1 }
        if offset - 1 == level, peek(offset) == UInt8(ascii: "]") {
          position += offset + 1
          return String(decoding: out, as: UTF8.self)
        }
        out.append(byte)
        position += 1
      } else if byte == 10 || byte == 13 {
        newline()
        out.append(10)
      } else {
        out.append(byte)
        position += 1
      }
    }
    throw LuaSyntaxError(line: start, message: "unfinished long \(what) (starting at line \(start)) near '<eof>'")
  }

  private mutating func shortString(quote: UInt8) throws(LuaSyntaxError) -> LuaToken {
    let start = line
    position += 1
    var out: [UInt8] = []
    while true {
      guard position < bytes.count else {
        throw LuaSyntaxError(line: start, message: "unfinished string near '<eof>'")
      }
      let byte = peek()
      if byte == quote {
        position += 1
        return LuaToken(kind: .string, text: String(decoding: out, as: UTF8.self), line: start)
      }
      if byte == 10 || byte == 13 { throw LuaSyntaxError(line: start, message: "unfinished string") }
      position += 1
      guard byte == UInt8(ascii: "\\") else {
        out.append(byte)
        continue
      }
      try escape(into: &out)
    }
  }

  /// After a backslash in a short string: decodes the escape into `out`.
  private mutating func escape(into out: inout [UInt8]) throws(LuaSyntaxError) {
    let byte = peek()
    let simple: [UInt8: UInt8] = [
      UInt8(ascii: "a"): 7, UInt8(ascii: "b"): 8, UInt8(ascii: "f"): 12, UInt8(ascii: "n"): 10,
      UInt8(ascii: "r"): 13, UInt8(ascii: "t"): 9, UInt8(ascii: "v"): 11, UInt8(ascii: "\\"): 92,
      UInt8(ascii: "\""): 34, UInt8(ascii: "'"): 39,
    ]
    if let value = simple[byte] {
      out.append(value)
      position += 1
    } else if byte == 10 || byte == 13 {
      newline()
      out.append(10)
    } else if byte == UInt8(ascii: "z") {
      position += 1
      while position < bytes.count, [9, 10, 11, 12, 13, 32].contains(peek()) {
        if peek() == 10 || peek() == 13 { newline() } else { position += 1 }
      }
    } else if byte == UInt8(ascii: "x") {
      position += 1
      var value = 0
      for _ in 0..<2 {
        guard let digit = Self.hexValue(peek()) else { throw escapeError("hexadecimal digit expected") }
        value = value * 16 + digit
        position += 1
      }
      out.append(UInt8(value))
    } else if Self.isDigit(byte) {
      var value = 0
      var count = 0
      while count < 3, Self.isDigit(peek()) {
        value = value * 10 + Int(peek() - 48)
        position += 1
        count += 1
      }
      guard value <= 255 else { throw escapeError("decimal escape too large") }
      out.append(UInt8(value))
    } else if byte == UInt8(ascii: "u") {
      position += 1
      guard peek() == UInt8(ascii: "{") else { throw escapeError("missing '{' in \\u{xxxx}") }
      position += 1
      var value: UInt32 = 0
      var digits = 0
      while let digit = Self.hexValue(peek()) {
        value = value &* 16 &+ UInt32(digit)
        guard value <= 0x7FFF_FFFF else { throw escapeError("UTF-8 value too large") }
        position += 1
        digits += 1
      }
      guard digits > 0, peek() == UInt8(ascii: "}") else { throw escapeError("missing '}' in \\u{xxxx}") }
      position += 1
      out += Array(String(UnicodeScalar(value) ?? "\u{FFFD}").utf8)
    } else {
      throw escapeError("invalid escape sequence")
    }
  }

  private func escapeError(_ message: String) -> LuaSyntaxError {
    LuaSyntaxError(line: line, message: message)
  }

  private mutating func numeral() throws(LuaSyntaxError) -> LuaToken {
    let start = position
    var exponents: Set<UInt8> = [UInt8(ascii: "e"), UInt8(ascii: "E")]
    if peek() == UInt8(ascii: "0"), peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X") {
      position += 2
      exponents = [UInt8(ascii: "p"), UInt8(ascii: "P")]
    }
    while position < bytes.count {
      let byte = peek()
      if exponents.contains(byte) {
        position += 1
        if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
      } else if Self.hexValue(byte) != nil || byte == UInt8(ascii: ".") {
        position += 1
      } else {
        break
      }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    guard let value = Self.value(ofNumeral: text), !Self.isNameStart(peek()) else {
      throw LuaSyntaxError(line: line, message: "malformed number near '\(text)'")
    }
    return LuaToken(kind: .number, text: text, number: value, line: line)
  }

  /// The value of a numeral as Lua reads it, nil if malformed.
  static func value(ofNumeral text: String) -> Double? {
    let lower = text.lowercased()
    guard lower.hasPrefix("0x") else { return Double(lower) }
    var mantissa = 0.0
    var exponent = 0
    var seenDot = false
    var digits = 0
    var rest = Substring(lower.dropFirst(2))
    while let first = rest.first, first != "p" {
      rest = rest.dropFirst()
      if first == "." {
        guard !seenDot else { return nil }
        seenDot = true
        continue
      }
      guard let digit = hexValue(first.asciiValue ?? 0) else { return nil }
      mantissa = mantissa * 16 + Double(digit)
      digits += 1
      if seenDot { exponent -= 4 }
    }
    guard digits > 0 else { return nil }
    if rest.first == "p" {
      guard let power = Int(rest.dropFirst()) else { return nil }
      exponent += power
    }
    return mantissa * pow2(exponent)
  }

  private static func pow2(_ exponent: Int) -> Double {
    var result = 1.0
    for _ in 0..<min(abs(exponent), 2100) { result *= exponent < 0 ? 0.5 : 2 }
    return result
  }

  static func isNameStart(_ byte: UInt8) -> Bool {
    (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 48...57: Int(byte - 48)
    case 97...102: Int(byte - 87)
    case 65...70: Int(byte - 55)
    default: nil
    }
  }
}
