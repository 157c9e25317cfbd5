/// Reads the JSON Lines form of the trace back into records (golden traces, traces written
/// by `--trace json`). What ``TraceJSON`` writes reads back to the same line.
///
/// ```swift
/// let records = try TraceJSONReader.records(from: text)   // one record per non-empty line
/// let withPlugins = try TraceJSONReader.records(from: text, events: TraceEvent.scriptingEvents)
/// ```
///
/// A record's `event` must be one of the events the reader is given (the core's by default;
/// a module that declares records of its own offers a list with them):
/// ```
package enum TraceJSONReader {
  /// A line that is not a trace record, with its 1-based line number.
  package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line.
    package var line: Int
    /// What is wrong.
    package var reason: String
    /// `line N: reason`.
    package var description: String { "line \(line): \(reason)" }
  }

  /// The records of a JSON Lines text, each of one of `events`; empty lines are skipped.
  package static func records(from text: String, events: [TraceEvent] = TraceEvent.coreEvents) throws(Failure)
    -> [TraceRecord]
  {
    let events = Dictionary(events.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
    var records: [TraceRecord] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.allSatisfy(\.isWhitespace) {
      do {
        records.append(try record(from: value(of: String(line)), events: events))
      } catch {
        throw Failure(line: index + 1, reason: error.reason)
      }
    }
    return records
  }

  /// One record from a JSON object: the contract's fields by name, any other in `extra`; its
  /// event is the one of `events` (by name) it names.
  package static func record(from value: TraceValue, events: [String: TraceEvent]) throws(Failure) -> TraceRecord {
    guard case .object(let fields) = value else { throw Failure(line: 0, reason: "not a JSON object") }
    guard case .number(let time)? = fields.first(where: { $0.key == "t" })?.value,
      case .string(let name)? = fields.first(where: { $0.key == "event" })?.value
    else { throw Failure(line: 0, reason: "a trace record needs a number \"t\" and a string \"event\"") }
    guard let event = events[name] else {
      var quoted = ""
      TraceJSON.writeString(name, to: &quoted)
      throw Failure(
        line: 0, reason: "field \"event\": \(quoted) is neither a callback nor a runtime record (docs/trace-format.md)")
    }
    var record = TraceRecord(time: time, event: event)
    for field in fields {
      switch (field.key, field.value) {
      case ("t", _), ("event", _): continue
      case ("marker", .string(let id)): record.marker = id
      case ("overlay", .string(let id)): record.overlay = id
      case ("camera", let camera) where cameraPosition(camera) != nil: record.camera = cameraPosition(camera)
      case ("gesture", .bool(let flag)): record.gesture = flag
      case ("coordinate", let point) where coordinate(point) != nil: record.coordinate = coordinate(point)
      case ("result", let result): record.result = result
      case ("plugin", let answerer): record.answerer = answerer
      case ("message", .string(let text)): record.message = text
      default: record.extra.append(field)
      }
    }
    return record
  }

  private static func number(_ key: String, in fields: [TraceField]) -> Double? {
    guard case .number(let value)? = fields.first(where: { $0.key == key })?.value else { return nil }
    return value
  }

  private static func coordinate(_ value: TraceValue) -> Coordinate? {
    guard case .object(let fields) = value, fields.count == 2, let lat = number("lat", in: fields),
      let lng = number("lng", in: fields)
    else { return nil }
    return Coordinate(latitude: lat, longitude: lng)
  }

  private static func cameraPosition(_ value: TraceValue) -> CameraPosition? {
    guard case .object(let fields) = value, fields.count == 5, let lat = number("lat", in: fields),
      let lng = number("lng", in: fields), let zoom = number("zoom", in: fields),
      let bearing = number("bearing", in: fields), let tilt = number("tilt", in: fields)
    else { return nil }
    return CameraPosition(target: Coordinate(latitude: lat, longitude: lng), zoom: zoom, bearing: bearing, tilt: tilt)
  }

  /// Parses one JSON value (the whole text).
  package static func value(of text: String) throws(Failure) -> TraceValue {
    var parser = Parser(bytes: Array(text.utf8))
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { throw parser.failure("unexpected text after the value") }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    func failure(_ reason: String) -> Failure { Failure(line: 0, reason: "\(reason) at byte \(index + 1)") }

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(Failure) -> TraceValue {
      guard depth < 64 else { throw failure("nested too deeply") }
      skipSpace()
      guard index < bytes.count else { throw failure("unexpected end") }
      switch bytes[index] {
      case UInt8(ascii: "{"):
        index += 1
        var fields: [TraceField] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(fields)
        }
        repeat {
          skipSpace()
          let key = try string()
          skipSpace()
          try expect(UInt8(ascii: ":"))
          fields.append(TraceField(key, try value(depth: depth + 1)))
          skipSpace()
        } while try more(closing: UInt8(ascii: "}"))
        return .object(fields)
      case UInt8(ascii: "["):
        index += 1
        var items: [TraceValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .list(items)
        }
        repeat {
          items.append(try value(depth: depth + 1))
          skipSpace()
        } while try more(closing: UInt8(ascii: "]"))
        return .list(items)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      default: return .number(try number())
      }
    }

    /// After an item: true at a comma, false at the closing bracket.
    mutating func more(closing: UInt8) throws(Failure) -> Bool {
      guard index < bytes.count else { throw failure("unexpected end") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        return true
      }
      try expect(closing)
      return false
    }

    mutating func expect(_ byte: UInt8) throws(Failure) {
      guard index < bytes.count, bytes[index] == byte else {
        throw failure("expected '\(Character(Unicode.Scalar(byte)))'")
      }
      index += 1
    }

    mutating func literal(_ word: String, _ value: TraceValue) throws(Failure) -> TraceValue {
      let end = index + word.utf8.count
      guard end <= bytes.count, Array(bytes[index..<end]) == Array(word.utf8) else { throw failure("unexpected text") }
      index = end
      return value
    }

    mutating func number() throws(Failure) -> Double {
      let start = index
      while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
      guard index > start, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
        throw failure("expected a value")
      }
      return value
    }

    mutating func string() throws(Failure) -> String {
      try expect(UInt8(ascii: "\""))
      var scalars = String.UnicodeScalarView()
      var run = index
      func flush(_ end: Int) {
        scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
      }
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          flush(index)
          index += 1
          return String(scalars)
        }
        guard byte == UInt8(ascii: "\\") else {
          index += 1
          continue
        }
        flush(index)
        index += 1
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          {
            index += 2
            let low = try hex4()
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
        default: scalars.append(Unicode.Scalar(escape))
        }
        run = index
      }
      throw failure("unterminated string")
    }

    mutating func hex4() throws(Failure) -> UInt32 {
      guard index + 4 <= bytes.count,
        let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
      else { throw failure("bad \\u escape") }
      index += 4
      return code
    }
  }
}
