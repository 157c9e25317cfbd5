import Foundation
import Testing

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `os.time` and `os.date` of a clock's zone against `lua5.4` run with `TZ` set to the zone:
/// a date table's `isdst` is read as glibc's `mktime` reads it (given and wrong for the
/// date: the offset of the daylight saving asked for; absent: the zone decides), and `%Z`
/// is the abbreviation of the zone's own file (`UTC` for `UTC`, never Foundation's `GMT`).
@Suite struct LocalTimeReferenceTests {
  /// One line of `os.time(t)` and the fields it normalized `t` to.
  static func expression(_ table: String) -> String {
    "local t = \(table); local ok, v = pcall(os.time, t); "
      + "print(v, t.year, t.month, t.day, t.hour, t.min, t.sec, t.isdst)"
  }

  /// What `lua5.4` prints for `code` with `TZ=zone`, each in a fresh process (glibc's
  /// `mktime` starts each process from the same first guess).
  static func reference(_ code: String, zone: String) throws -> String {
    try ReferenceLua.output(["-e", code], environment: ["TZ": zone]).trimmingCharacters(in: .newlines)
  }

  /// What a script with `clock = { zone = zone }` logs for each of `lines`, in order.
  static func sandbox(_ lines: [String], zone: String) throws -> [String] {
    let folder = try PluginFolder()
    try folder.write(
      "main.lua", "local map = waymark.map{ clock = { zone = '\(zone)' } }\n" + lines.joined(separator: "\n"))
    let outcome = ScriptRunner.run(folder.file("main.lua"), options: .forTests)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    return outcome.records.filter { $0.event == .log }.compactMap(\.message)
  }

  /// Expects the sandbox to print what `lua5.4` prints for each of `lines` in `zone`.
  static func expectSame(_ lines: [String], zone: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let ours = try sandbox(lines, zone: zone)
    #expect(ours.count == lines.count, "\(ours)", sourceLocation: sourceLocation)
    for (line, printed) in zip(lines, ours) {
      let theirs = try reference(line, zone: zone)
      #expect(printed == theirs, "\(zone): \(line)", sourceLocation: sourceLocation)
    }
  }

  @Test("isdst given for a date outside daylight saving, inside it, in the April overlap and the October gap")
  func isdstInMelbourne() throws {
    let dates = [
      "year = 2025, month = 4, day = 6, hour = 2, min = 30",  // the overlap: 02:30 comes twice
      "year = 2025, month = 4, day = 5, hour = 16, min = 30",  // daylight saving
      "year = 2025, month = 6, day = 2, hour = 9",  // standard time
      "year = 2025, month = 10, day = 5, hour = 2, min = 30",  // the gap: 02:30 never comes
      "year = 2025, month = 1, day = 15, hour = 10",
    ]
    var lines: [String] = []
    for date in dates {
      for isdst in ["", ", isdst = true", ", isdst = false"] { lines.append(Self.expression("{ \(date)\(isdst) }")) }
    }
    try Self.expectSame(lines, zone: "Australia/Melbourne")
    // The audit's three cases, by value.
    let known = try Self.sandbox(
      [
        "print(os.time{ year = 2025, month = 4, day = 6, hour = 2, min = 30, isdst = true })",
        "print(os.time{ year = 2025, month = 4, day = 5, hour = 16, min = 30, isdst = false })",
        "print(os.time{ year = 2025, month = 6, day = 2, hour = 9, min = 0, isdst = true })",
      ], zone: "Australia/Melbourne")
    #expect(known == ["1743867000", "1743834600", "1748815200"])
  }

  @Test("isdst any value but nil is its truth; seconds past 59 take the offset of the minute they start in")
  func isdstTruthAndSecondsInMelbourne() throws {
    try Self.expectSame(
      [
        Self.expression("{ year = 2025, month = 6, day = 2, hour = 9, isdst = 0 }"),
        Self.expression("{ year = 2025, month = 6, day = 2, hour = 9, isdst = 'no' }"),
        Self.expression("{ year = 2025, month = 4, day = 6, hour = 0, sec = 4 * 3600 }"),
        Self.expression("{ year = 2025, month = 10, day = 5, hour = 0, sec = 4 * 3600, isdst = false }"),
        Self.expression("{ year = 2025, month = 4, day = 6, hour = 0, sec = -60 }"),
      ], zone: "Australia/Melbourne")
  }

  @Test("Other zones: a half-hour daylight saving (Lord Howe), the northern hemisphere, UTC")
  func isdstElsewhere() throws {
    for zone in ["Australia/Lord_Howe", "Europe/London", "America/New_York", "UTC"] {
      try Self.expectSame(
        [
          Self.expression("{ year = 2025, month = 1, day = 15, hour = 10, isdst = true }"),
          Self.expression("{ year = 2025, month = 7, day = 15, hour = 10, isdst = false }"),
          Self.expression("{ year = 2025, month = 7, day = 15, hour = 10 }"),
          Self.expression("{ year = 2025, month = 3, day = 9, hour = 2, min = 30 }"),
          Self.expression("{ year = 2025, month = 3, day = 30, hour = 1, min = 30, isdst = true }"),
          Self.expression("{ year = 2025, month = 11, day = 2, hour = 1, min = 30, isdst = false }"),
        ], zone: zone)
    }
  }

  @Test("%Z is the abbreviation of the zone's own file: UTC for UTC and Etc/UTC, GMT for GMT")
  func abbreviationOfUTC() throws {
    for zone in ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Universal", "Zulu", "Australia/Melbourne"] {
      let line = "print(os.date('%Z', 1748818800), os.date('%Z %z', 1736895600))"
      let ours = try Self.sandbox([line], zone: zone)
      #expect(ours == [try Self.reference(line, zone: zone)], "\(zone)")
    }
    #expect(try Self.sandbox(["print(os.date('%Z'))"], zone: "UTC") == ["UTC"])
  }
}
