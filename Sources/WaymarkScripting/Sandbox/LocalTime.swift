import Foundation
import LuaKit

/// `os.time` and `os.date` on a map's virtual clock, in the local time of its
/// ``LocalClock`` (UTC without one), whatever the machine's own time zone: the same text on
/// every machine that has the zone.
enum LocalTime {
  /// `os.time()` at time 0 without a clock: 2025-01-01T00:00:00Z.
  static let defaultEpoch = 1_735_689_600

  /// `os.time()`: the clock's start plus the whole seconds of virtual time.
  static func now(_ seconds: Double, clock: LocalClock?) -> Int {
    (clock?.startEpoch ?? defaultEpoch) + Int(seconds.rounded(.down))
  }

  /// The conversions `os.date` accepts, as Lua 5.4's C99 list: one letter, or `E` or `O`
  /// and a letter.
  private static let conversions: Set<String> = {
    var set = Set("aAbBcCdDeFgGhHIjmMnprRStTuUVwWxXyYzZ%".map(String.init))
    for pair in [
      "Ec", "EC", "Ex", "EX", "Ey", "EY", "Od", "Oe", "OH", "OI", "Om", "OM", "OS", "Ou", "OU", "OV", "Ow", "OW", "Oy",
    ] {
      set.insert(pair)
    }
    return set
  }()

  /// The broken-down time of `time` (seconds since 1970) in `zone` (UTC when nil).
  static func brokenDown(_ time: Int, in zone: TimeZone?) -> tm {
    let (offset, isDST) = localType(at: time, in: zone)
    var local = time_t(time + offset)
    var fields = tm()
    gmtime_r(&local, &fields)
    fields.tm_isdst = isDST ? 1 : 0
    fields.tm_gmtoff = offset
    return fields
  }

  /// `os.date(format, time)`, as Lua's: `format` (default `%c`) in local time, or in UTC
  /// after a leading `!`; `*t` is the table of the fields. Pushes the result. An unknown
  /// conversion is an error naming it, as Lua's.
  static func date(_ context: LuaCallContext, now: Int, clock: LocalClock?) throws(LuaFunctionError) -> Int32 {
    let stack = context.stack
    var format = Array((try context.optionalString(1) ?? "%c").utf8)
    let time: Int
    if stack.type(at: 2) == .none || stack.type(at: 2) == .nil {
      time = now
    } else {
      time = try context.checkInteger(2)
    }
    var zone = clock?.timeZone
    let isUTC = format.first == UInt8(ascii: "!")
    if isUTC {
      zone = nil
      format.removeFirst()
    }
    // `!` is UTC, which C's gmtime names GMT; local time without a clock is UTC too.
    let abbreviation =
      isUTC ? "GMT" : clock.map { ZoneAbbreviations.abbreviation(of: $0.timeZone, named: $0.zone, at: time) } ?? "UTC"
    var fields = brokenDown(time, in: zone)
    if format.starts(with: Array("*t".utf8)) {
      push(fields, on: stack)
      return 1
    }
    var output: [UInt8] = []
    var index = 0
    while index < format.count {
      let byte = format[index]
      index += 1
      guard byte == UInt8(ascii: "%") else {
        output.append(byte)
        continue
      }
      let one = index < format.count ? String(decoding: format[index..<index + 1], as: UTF8.self) : ""
      let two = index + 1 < format.count ? String(decoding: format[index..<index + 2], as: UTF8.self) : ""
      let conversion: String
      if conversions.contains(one), one != "E", one != "O" {
        conversion = one
      } else if conversions.contains(two) {
        conversion = two
      } else {
        let shown = String(decoding: format[index..<min(format.count, index + 2)], as: UTF8.self)
        throw context.argumentError(1, "invalid conversion specifier '%\(shown)'")
      }
      index += conversion.utf8.count
      var buffer = [CChar](repeating: 0, count: 256)
      let count = abbreviation.withCString { name in
        fields.tm_zone = name
        return strftime(&buffer, buffer.count, "%" + conversion, &fields)
      }
      output.append(contentsOf: buffer[0..<count].map { UInt8(bitPattern: $0) })
    }
    stack.push(bytes: output)
    return 1
  }

  /// Pushes `*t`'s table: year, month, day, hour, min, sec, wday, yday, isdst. Stack: +1.
  private static func push(_ fields: tm, on stack: LuaStack) {
    stack.newTable(fieldCount: 9)
    for (key, value) in [
      ("year", fields.tm_year + 1900), ("month", fields.tm_mon + 1), ("day", fields.tm_mday),
      ("hour", fields.tm_hour), ("min", fields.tm_min), ("sec", fields.tm_sec), ("wday", fields.tm_wday + 1),
      ("yday", fields.tm_yday + 1),
    ] {
      stack.push(Int(value))
      stack.rawSetField(key, ofTableAt: -2)
    }
    stack.push(fields.tm_isdst > 0)
    stack.rawSetField("isdst", ofTableAt: -2)
  }

  /// `os.time(table)`: the local time the table names, in the clock's zone (UTC without
  /// one), normalized as glibc's `mktime` does (`month = 13` is January of the next year;
  /// `isdst`, when given, says which offset a time means: ``makeTime(utcValue:extraSeconds:isdst:zone:)``);
  /// the table's fields are set to the normalized time, as Lua's `os.time` does.
  static func time(_ context: LuaCallContext, clock: LocalClock?) throws(LuaFunctionError) -> Int32 {
    let stack = context.stack
    try context.checkTable(1)
    var fields = tm()
    func field(_ key: String, default value: Int?, delta: Int) throws(LuaFunctionError) -> Int32 {
      let type = stack.rawGetField(key, ofTableAt: 1)
      defer { stack.pop() }
      guard type != .nil else {
        guard let value else { throw LuaFunctionError("field '\(key)' missing in date table") }
        return Int32(value)
      }
      guard type == .number, let n = stack.integer(at: -1) else {
        throw LuaFunctionError("field '\(key)' is not an integer")
      }
      guard n - delta >= Int(Int32.min), n - delta <= Int(Int32.max) else {
        throw LuaFunctionError("field '\(key)' is out-of-bound")
      }
      return Int32(n - delta)
    }
    fields.tm_year = try field("year", default: nil, delta: 1900)
    fields.tm_mon = try field("month", default: nil, delta: 1)
    fields.tm_mday = try field("day", default: nil, delta: 0)
    fields.tm_hour = try field("hour", default: 12, delta: 0)
    fields.tm_min = try field("min", default: 0, delta: 0)
    let seconds = try field("sec", default: 0, delta: 0)
    // Lua's getboolfield: nil is -1 (let the zone decide), any other value its truth.
    let isdst = stack.rawGetField("isdst", ofTableAt: 1) == .nil ? -1 : (stack.boolean(at: -1) ? 1 : 0)
    stack.pop()
    // glibc clamps the seconds to 0...59 while it looks for the offset and adds the rest after.
    fields.tm_sec = min(max(seconds, 0), 59)
    let zone = clock?.timeZone
    guard
      let time = makeTime(
        utcValue: Int(timegm(&fields)), extraSeconds: Int(seconds) - Int(fields.tm_sec), isdst: isdst, zone: zone)
    else { throw LuaFunctionError("time result cannot be represented in this installation") }
    let normalized = brokenDown(time, in: zone)
    for (key, value) in [
      ("year", normalized.tm_year + 1900), ("month", normalized.tm_mon + 1), ("day", normalized.tm_mday),
      ("hour", normalized.tm_hour), ("min", normalized.tm_min), ("sec", normalized.tm_sec),
      ("wday", normalized.tm_wday + 1), ("yday", normalized.tm_yday + 1),
    ] {
      stack.push(Int(value))
      stack.rawSetField(key, ofTableAt: 1)
    }
    stack.push(normalized.tm_isdst > 0)
    stack.rawSetField("isdst", ofTableAt: 1)
    stack.push(time)
    return 1
  }
}
