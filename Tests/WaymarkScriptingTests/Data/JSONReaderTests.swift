import Foundation
import LuaKit
import Testing

@testable import WaymarkScripting

/// `waymark.json`: the decoder reads RFC 8259 as Foundation does, and encoding what it
/// decoded gives the same document back, with sorted keys.
@Suite struct JSONReaderTests {
  /// Decodes `text` in a fresh state (null as the sentinel) and encodes the value again.
  private func roundTrip(_ text: String) throws -> String {
    let state = try LuaState(libraries: .all)
    defer { state.close() }
    let stack = state.stack
    try stack.run("return setmetatable({}, {})", chunkName: "=null", results: 1)
    try (Array(text.utf8) + [0]).withUnsafeBufferPointer { buffer throws(JSONError) in
      try JSONReader.push(buffer, on: stack, null: 1)
    }
    return String(decoding: try JSONWriter.encode(at: -1, on: stack, null: 1), as: UTF8.self)
  }

  private func decodingError(_ text: String) -> JSONError? {
    do {
      let state = try LuaState(libraries: .all)
      defer { state.close() }
      try (Array(text.utf8) + [0]).withUnsafeBufferPointer { buffer throws(JSONError) in
        try JSONReader.push(buffer, on: state.stack)
      }
      return nil
    } catch let error as JSONError {
      return error
    } catch {
      return nil
    }
  }

  static let documents = [
    #"{"type":"FeatureCollection","features":[{"type":"Feature","id":3,"geometry":{"type":"Point","coordinates":[144.96,-37.81]},"properties":{"name":"A \"quoted\" café","open":true,"rank":null}}]}"#,
    #"[1, -0, 2.5, -1e-7, 1E+3, 9007199254740993, 0.1, 1.7976931348623157e308]"#,
    #"{"esc":"\u00e9\n\t\\\/\b\f\r","pair":"\ud83d\ude00","ctl":"\u0001","empty":{},"list":[[],[null,false]]}"#,
    #"  "a lone string"  "#, "true", "-12",
  ]

  @Test("Decoding then encoding gives what Foundation reads from the original", arguments: documents)
  func roundTripMatchesFoundation(document: String) throws {
    let again = try roundTrip(document)
    let options: JSONSerialization.ReadingOptions = [.fragmentsAllowed]
    let expected = try JSONSerialization.jsonObject(with: Data(document.utf8), options: options) as! NSObject
    let actual = try JSONSerialization.jsonObject(with: Data(again.utf8), options: options) as! NSObject
    // An empty object and an empty array are one Lua value (an empty table), written `{}`.
    let normalized = document.replacingOccurrences(of: "[]", with: "{}")
    let expectedNormalized =
      try JSONSerialization.jsonObject(with: Data(normalized.utf8), options: options) as! NSObject
    #expect(actual.isEqual(expectedNormalized) || actual.isEqual(expected), "\(again)")
  }

  @Test("Keys are written sorted, integers as integers, floats exactly")
  func encodingIsDeterministic() throws {
    #expect(try roundTrip(#"{"b":1,"a":[1.5,2,1e300],"c":null}"#) == #"{"a":[1.5,2,1e+300],"b":1,"c":null}"#)
  }

  /// docs/plugins.md, "Data files and JSON": a number without fraction or exponent that fits
  /// 64 bits is an integer, exactly; past that, or with either, a float.
  @Test("An integer that fits 64 bits decodes as that Lua integer exactly, at both ends of the range")
  func integersUpTo64Bits() throws {
    let state = try LuaState(libraries: .all)
    defer { state.close() }
    let stack = state.stack
    let text = "[1234567890123456789, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1e3, 10.0]"
    try (Array(text.utf8) + [0]).withUnsafeBufferPointer { buffer throws(JSONError) in
      try JSONReader.push(buffer, on: stack)
    }
    let expected: [Int?] = [1_234_567_890_123_456_789, .max, .min, nil, nil, nil]
    for (offset, value) in expected.enumerated() {
      _ = stack.rawGetIndex(offset + 1, ofTableAt: -1)
      defer { stack.pop() }
      if let value {
        #expect(stack.isInteger(at: -1) && stack.integer(at: -1) == value, "element \(offset + 1)")
      } else {
        #expect(!stack.isInteger(at: -1), "element \(offset + 1) is a float")
      }
    }
  }

  @Test("Mistakes are errors naming line and column")
  func errorsNameTheirPlace() {
    #expect(
      decodingError("{\n  \"a\": [1, 2,]\n}") == JSONError(line: 2, column: 14, message: "a value expected, found ']'"))
    #expect(decodingError("{\"a\" 1}")?.message == "':' expected after the key, found '1'")
    #expect(decodingError("[01]")?.message == "a number with a leading zero")
    #expect(decodingError("\"\\ud800\"")?.message == "an unpaired surrogate \\uD800")
    #expect(decodingError("\"a\u{01}\"")?.message == "a control character (0x1) inside a string")
    #expect(decodingError("[1] 2")?.message == "text after the value")
    #expect(decodingError("{\"a\":1")?.message == "',' or '}' expected, found the end of the text")
    #expect(decodingError("// no\n1")?.line == 1)
    #expect(decodingError(String(repeating: "[", count: 300))?.message == "arrays and objects nested deeper than 200")
    #expect(decodingError("nul")?.message == "a value expected, found 'n'")
  }

  @Test("Invalid UTF-8 inside a string is an error")
  func invalidUTF8() throws {
    let state = try LuaState(libraries: .all)
    defer { state.close() }
    var caught: JSONError?
    do {
      try ([0x22, 0x61, 0xC3, 0x28, 0x22, 0] as [UInt8]).withUnsafeBufferPointer { buffer throws(JSONError) in
        try JSONReader.push(buffer, on: state.stack)
      }
    } catch {
      caught = error
    }
    #expect(caught == JSONError(line: 1, column: 3, message: "invalid UTF-8 (byte 0xC3)"))
  }
}
