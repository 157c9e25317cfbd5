import Foundation
import LuaKit

/// Decodes JSON (RFC 8259) straight into Lua values on a stack: objects and arrays become
/// tables, numbers integers when written without fraction or exponent and in Int64's range,
/// exactly (floats otherwise), strings their UTF-8 bytes. `null` becomes the value at ``nullIndex`` when
/// given, else nil (an object's key is then absent, an array keeps its length with a hole).
/// A duplicate key keeps its last value. Strict: no comments, no trailing commas, no bare
/// words; invalid UTF-8, an unpaired surrogate or a control character in a string is an
/// error naming its line and column. No intermediate objects are made, which is what lets a
/// 100,000-feature GeoJSON file decode as fast as Python's C decoder reads it.
package struct JSONReader {
  /// The deepest nesting of arrays and objects.
  package static let maxDepth = 200
  private let text: UnsafeBufferPointer<UInt8>
  private let stack: LuaStack
  private let nullIndex: Int32?
  private var offset = 0
  private var depth = 0
  private var values = 0
  private let memoryLimit: Int?
  private var scratch: [UInt8] = []

  /// Decodes `bytes` (which must end with a 0 byte past the text, for number parsing) and
  /// pushes the value. Stack: +1, or 0 when it throws.
  package static func push(
    _ bytes: UnsafeBufferPointer<UInt8>, on stack: LuaStack, null nullIndex: Int32? = nil
  ) throws(JSONError) {
    precondition(bytes.last == 0, "the text must end with a 0 byte")
    var reader = JSONReader(
      text: UnsafeBufferPointer(rebasing: bytes.dropLast()), stack: stack,
      nullIndex: nullIndex.map(stack.absoluteIndex), memoryLimit: stack.state.memoryLimit)
    let top = stack.top
    do throws(JSONError) {
      reader.skipSpace()
      if reader.offset < reader.text.count, reader.text[reader.offset] == 0x00 { throw reader.error("a NUL byte") }
      _ = try reader.value()
      reader.skipSpace()
      guard reader.offset == reader.text.count else { throw reader.error("text after the value") }
    } catch {
      stack.setTop(top)
      throw error
    }
    if stack.top == top { stack.pushNil() }  // a lone null without a null value
  }

  private init(text: UnsafeBufferPointer<UInt8>, stack: LuaStack, nullIndex: Int32?, memoryLimit: Int?) {
    self.text = text
    self.stack = stack
    self.nullIndex = nullIndex
    self.memoryLimit = memoryLimit
  }

  /// The error at the current offset, with its line and column.
  private func error(_ message: String, at position: Int? = nil) -> JSONError {
    let end = min(position ?? offset, text.count)
    var line = 1
    var lineStart = 0
    for index in 0..<end where text[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    return JSONError(line: line, column: end - lineStart + 1, message: message)
  }

  private mutating func skipSpace() {
    while offset < text.count {
      switch text[offset] {
      case 0x20, 0x09, 0x0A, 0x0D: offset += 1
      default: return
      }
    }
  }

  private func describeHere() -> String {
    guard offset < text.count else { return "the end of the text" }
    let byte = text[offset]
    return (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
  }

  /// Parses one value and pushes it; returns false (nothing pushed) for null without a null value.
  private mutating func value() throws(JSONError) -> Bool {
    guard offset < text.count else { throw error("a value expected, found the end of the text") }
    values += 1
    if values & 0xFFFF == 0, let memoryLimit, stack.state.memoryInUse > memoryLimit {
      throw error("the decoded value passes the memory limit of \(memoryLimit >> 20) MiB")
    }
    switch text[offset] {
    case 0x7B: try object()
    case 0x5B: try array()
    case 0x22: try string()
    case 0x74: try word("true") { $0.stack.push(true) }
    case 0x66: try word("false") { $0.stack.push(false) }
    case 0x6E:
      try word("null") { _ in }
      guard let nullIndex else { return false }
      stack.pushValue(at: nullIndex)
    case 0x2D, 0x30...0x39: try number()
    default: throw error("a value expected, found \(describeHere())")
    }
    return true
  }

  private mutating func word(_ name: StaticString, push: (Self) -> Void) throws(JSONError) {
    let count = name.utf8CodeUnitCount
    let matches =
      offset + count <= text.count
      && (0..<count).allSatisfy { text[offset + $0] == name.utf8Start[$0] }
    guard matches else { throw error("a value expected, found \(describeHere())") }
    offset += count
    push(self)
  }

  private mutating func enter() throws(JSONError) {
    depth += 1
    guard depth <= Self.maxDepth else { throw error("arrays and objects nested deeper than \(Self.maxDepth)") }
    guard stack.reserve(4) else { throw error("nesting too deep for the Lua stack") }
  }

  private mutating func object() throws(JSONError) {
    try enter()
    offset += 1
    stack.newTable()
    skipSpace()
    if offset < text.count, text[offset] == 0x7D {
      offset += 1
      depth -= 1
      return
    }
    while true {
      skipSpace()
      guard offset < text.count, text[offset] == 0x22 else {
        throw error("a key (a string in double quotes) expected, found \(describeHere())")
      }
      try string()
      skipSpace()
      guard offset < text.count, text[offset] == 0x3A else {
        throw error("':' expected after the key, found \(describeHere())")
      }
      offset += 1
      skipSpace()
      if try value() { stack.rawSet(ofTableAt: -3) } else { stack.pop() }
      if try !another(before: 0x7D) { return }
    }
  }

  private mutating func array() throws(JSONError) {
    try enter()
    offset += 1
    stack.newTable()
    skipSpace()
    if offset < text.count, text[offset] == 0x5D {
      offset += 1
      depth -= 1
      return
    }
    var index = 0
    while true {
      skipSpace()
      index += 1
      if try value() { stack.rawSetIndex(index, ofTableAt: -2) }
      if try !another(before: 0x5D) { return }
    }
  }

  /// After a member or an element: true past a ',' (another follows); false past `close`,
  /// the object or array ended (one level up again); anything else is an error naming both.
  private mutating func another(before close: UInt8) throws(JSONError) -> Bool {
    skipSpace()
    if offset < text.count, text[offset] == 0x2C {
      offset += 1
      return true
    }
    guard offset < text.count, text[offset] == close else {
      throw error("',' or '\(Character(Unicode.Scalar(close)))' expected, found \(describeHere())")
    }
    offset += 1
    depth -= 1
    return false
  }

  private mutating func number() throws(JSONError) {
    let start = offset
    var isInteger = true
    if text[offset] == 0x2D { offset += 1 }
    let digitsStart = offset
    guard offset < text.count, (0x30...0x39).contains(text[offset]) else {
      throw error("a digit expected after '-', found \(describeHere())")
    }
    if text[offset] == 0x30 {
      offset += 1
      if offset < text.count, (0x30...0x39).contains(text[offset]) {
        throw error("a number with a leading zero")
      }
    } else {
      while offset < text.count, (0x30...0x39).contains(text[offset]) { offset += 1 }
    }
    let integerDigits = offset - digitsStart
    if offset < text.count, text[offset] == 0x2E {
      isInteger = false
      offset += 1
      guard offset < text.count, (0x30...0x39).contains(text[offset]) else {
        throw error("a digit expected after '.', found \(describeHere())")
      }
      while offset < text.count, (0x30...0x39).contains(text[offset]) { offset += 1 }
    }
    if offset < text.count, text[offset] | 0x20 == 0x65 {
      isInteger = false
      offset += 1
      if offset < text.count, text[offset] == 0x2B || text[offset] == 0x2D { offset += 1 }
      guard offset < text.count, (0x30...0x39).contains(text[offset]) else {
        throw error("a digit expected in the exponent, found \(describeHere())")
      }
      while offset < text.count, (0x30...0x39).contains(text[offset]) { offset += 1 }
    }
    if isInteger, integerDigits <= 18 {
      var n = 0
      for index in digitsStart..<offset { n = n &* 10 &+ Int(text[index] &- 0x30) }
      stack.push(text[start] == 0x2D ? -n : n)
      return
    }
    if isInteger, integerDigits == 19, let n = exactInteger(digits: digitsStart..<offset, negative: text[start] == 0x2D)
    {
      stack.push(n)
      return
    }
    // The grammar was checked above, so strtod reads exactly the number (the text ends with a 0).
    let pointer = UnsafeRawPointer(text.baseAddress! + start).assumingMemoryBound(to: CChar.self)
    stack.push(strtod(pointer, nil))
  }

  /// The integer a run of 19 digits writes (with its sign), nil past Int64's range: counted
  /// down from zero, so that -9223372036854775808 is exact too.
  private func exactInteger(digits: Range<Int>, negative: Bool) -> Int? {
    var n = 0
    for index in digits {
      let (scaled, overflow) = n.multipliedReportingOverflow(by: 10)
      let (next, borrow) = scaled.subtractingReportingOverflow(Int(text[index] &- 0x30))
      guard !overflow, !borrow else { return nil }
      n = next
    }
    if negative { return n }
    return n == .min ? nil : -n
  }

  private mutating func string() throws(JSONError) {
    offset += 1
    let start = offset
    // The common case: no escapes, plain ASCII or valid UTF-8, pushed straight from the text.
    while offset < text.count {
      let byte = text[offset]
      if byte == 0x22 {
        stack.push(buffer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[start..<offset])))
        offset += 1
        return
      }
      if byte == 0x5C { break }
      if byte < 0x20 { throw error("a control character (0x\(String(byte, radix: 16))) inside a string") }
      if byte < 0x80 { offset += 1 } else { try utf8Sequence() }
    }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: text[start..<offset])
    while true {
      guard offset < text.count else { throw error("a string never closed", at: start - 1) }
      let byte = text[offset]
      switch byte {
      case 0x22:
        offset += 1
        scratch.withUnsafeBytes { stack.push(buffer: $0) }
        return
      case 0x5C:
        try escape()
      case 0..<0x20:
        throw error("a control character (0x\(String(byte, radix: 16))) inside a string")
      case 0..<0x80:
        scratch.append(byte)
        offset += 1
      default:
        let sequenceStart = offset
        try utf8Sequence()
        scratch.append(contentsOf: text[sequenceStart..<offset])
      }
    }
  }

  /// Checks one multi-byte UTF-8 sequence at the offset and steps over it.
  private mutating func utf8Sequence() throws(JSONError) {
    let lead = text[offset]
    let (count, low, high): (Int, UInt8, UInt8)
    switch lead {
    case 0xC2...0xDF: (count, low, high) = (1, 0x80, 0xBF)
    case 0xE0: (count, low, high) = (2, 0xA0, 0xBF)
    case 0xED: (count, low, high) = (2, 0x80, 0x9F)
    case 0xE1...0xEF: (count, low, high) = (2, 0x80, 0xBF)
    case 0xF0: (count, low, high) = (3, 0x90, 0xBF)
    case 0xF4: (count, low, high) = (3, 0x80, 0x8F)
    case 0xF1...0xF3: (count, low, high) = (3, 0x80, 0xBF)
    default: throw error("invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)))")
    }
    guard offset + count < text.count, (low...high).contains(text[offset + 1]),
      (1..<count + 1).dropFirst().allSatisfy({ (0x80...0xBF).contains(text[offset + $0]) })
    else { throw error("invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)))") }
    offset += count + 1
  }

  private mutating func escape() throws(JSONError) {
    offset += 1
    guard offset < text.count else { throw error("an escape at the end of the text") }
    let byte = text[offset]
    offset += 1
    switch byte {
    case 0x22, 0x5C, 0x2F: scratch.append(byte)
    case 0x62: scratch.append(0x08)
    case 0x66: scratch.append(0x0C)
    case 0x6E: scratch.append(0x0A)
    case 0x72: scratch.append(0x0D)
    case 0x74: scratch.append(0x09)
    case 0x75:
      var scalar = try hex4()
      if (0xD800...0xDBFF).contains(scalar) {
        guard offset + 1 < text.count, text[offset] == 0x5C, text[offset + 1] == 0x75 else {
          throw error("an unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))")
        }
        offset += 2
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw error("an unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw error("an unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))")
      }
      scratch.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
    default:
      offset -= 1
      throw error("an unknown escape \\\(describeHere())")
    }
  }

  private mutating func hex4() throws(JSONError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard offset < text.count, let digit = Self.hexValue(text[offset]) else {
        throw error("four hex digits expected after \\u, found \(describeHere())")
      }
      value = value << 4 | digit
      offset += 1
    }
    return value
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 0x30...0x39: return UInt32(byte - 0x30)
    case 0x41...0x46: return UInt32(byte - 0x41 + 10)
    case 0x61...0x66: return UInt32(byte - 0x61 + 10)
    default: return nil
    }
  }
}

/// A JSON text's mistake: where (1-based line and column, in bytes) and what.
package struct JSONError: Error, Sendable, Equatable {
  /// The line.
  package let line: Int
  /// The column, in bytes.
  package let column: Int
  /// What is wrong.
  package let message: String
}
