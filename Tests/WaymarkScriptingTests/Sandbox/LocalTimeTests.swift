import Foundation
import Testing

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `clock = { start =, zone = }`: `os.time` counts from the start on the virtual clock and
/// `os.date` formats local time in the zone, from the system's IANA database, whatever the
/// machine's own zone (docs/plugins.md, "Local time").
@Suite struct LocalTimeTests {
  /// The log lines of `script`, run as demo.lua beside the plugins `plugins/NAME`.
  func logs(_ script: String, plugins: [String: String] = [:], project: String? = nil) throws -> (
    logs: [String], outcome: ScriptOutcome
  ) {
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    for (name, source) in plugins { try folder.write("plugins/" + name, source) }
    if let project { try folder.write("waymark.lua", project) }
    try folder.write("demo.lua", script)
    let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    return (outcome.records.filter { $0.event == .log }.compactMap(\.message), outcome)
  }

  static let melbourne = "clock = { start = '2025-06-02T09:00:00', zone = 'Australia/Melbourne' }"

  @Test("os.time counts from the start, local time in the zone; os.date formats it there, ! in UTC")
  func startAndZone() throws {
    let (logs, outcome) = try logs(
      """
      local map = waymark.map{ \(Self.melbourne) }
      print(os.time(), os.date('%Y-%m-%d %H:%M:%S %Z %z'), os.date('!%Y-%m-%dT%H:%M:%SZ %Z'), os.date())
      map:advance(9 * 3600 + 30)
      print(os.time(), os.date('%A %H:%M:%S'), os.date('*t').hour, os.date('!*t').hour, os.date('*t').isdst)
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(
      logs == [
        "1748818800\t2025-06-02 09:00:00 AEST +1000\t2025-06-01T23:00:00Z GMT\tMon Jun  2 09:00:00 2025",
        "1748851230\tMonday 18:00:30\t18\t8\tfalse",
      ])
  }

  @Test("Daylight saving follows the zone's rules: January in Melbourne is AEDT, +1100")
  func daylightSaving() throws {
    let (logs, _) = try logs(
      """
      local map = waymark.map{ \(Self.melbourne) }
      local summer = os.time{ year = 2025, month = 1, day = 15, hour = 10 }
      print(summer, os.date('%H:%M %Z %z', summer), os.date('*t', summer).isdst)
      """)
    #expect(logs == ["1736895600\t10:00 AEDT +1100\ttrue"])
  }

  @Test("os.time of a table reads it as local time in the zone and normalizes it, as Lua's does")
  func timeOfATable() throws {
    let (logs, _) = try logs(
      """
      local map = waymark.map{ clock = { zone = 'Europe/Paris' } }
      local t = { year = 2025, month = 13, day = 1, hour = 0 }
      print(os.time(t), t.year, t.month, t.day, t.wday, t.yday)
      print(pcall(os.time, { year = 2025, month = 1 }))
      print(pcall(os.time, { year = 2025, month = 1, day = 1.5 }))
      """)
    #expect(
      logs == [
        "1767222000\t2026\t1\t1\t5\t1",
        "false\tfield 'day' missing in date table",
        "false\tfield 'day' is not an integer",
      ])
  }

  @Test("Without a clock, os.time starts at 2025-01-01T00:00:00Z and local time is UTC")
  func noClock() throws {
    let (logs, _) = try logs("local map = waymark.map{}\nprint(os.time(), os.date('%Y-%m-%d %H:%M %Z'))")
    #expect(logs == ["\(LocalTime.defaultEpoch)\t2025-01-01 00:00 UTC"])
  }

  @Test("A conversion os.date does not know is an error naming it, as Lua's")
  func badConversion() throws {
    let (logs, _) = try logs("local map = waymark.map{}\nprint(pcall(os.date, '%Q'))\nprint(pcall(os.date, '%Ez'))")
    #expect(
      logs == [
        "false\tbad argument #1 to 'date' (invalid conversion specifier '%Q')",
        "false\tbad argument #1 to 'date' (invalid conversion specifier '%Ez')",
      ])
  }

  @Test("An unknown zone or a start that is not a date stops waymark.map, naming it")
  func badClock() throws {
    let (_, zone) = try logs("local map = waymark.map{ clock = { zone = 'Australia/Melborne' } }")
    #expect(zone.error?.contains("demo.lua:1: waymark.map: clock.zone: unknown time zone 'Australia/Melborne'") == true)
    #expect(zone.error?.contains("did you mean Australia/Melbourne?") == true, "\(zone.error ?? "")")
    let (_, start) = try logs("local map = waymark.map{ clock = { start = '2025-06-31T00:00:00' } }")
    #expect(start.error?.contains("clock.start: '2025-06-31T00:00:00' is not a real date and time") == true)
    let (_, key) = try logs("local map = waymark.map{ clock = { zones = 'UTC' } }")
    #expect(key.error?.contains("zones") == true, "\(key.error ?? "")")
  }

  @Test("Plugins tell the time of their map's clock; the script's clock wins over the project's")
  func pluginsAndProject() throws {
    let plugin = "return { name = 'p', setup = function(map) print('plugin', os.date('%H:%M %Z')) end }"
    let project = "return { plugins = 'plugins', clock = { start = '2025-06-02T09:00:00', zone = 'Europe/London' } }"
    let fromProject = try logs(
      "local map = waymark.map{}\nprint('script', os.date('%H:%M %Z'))", plugins: ["p.lua": plugin], project: project)
    #expect(fromProject.logs == ["plugin\t09:00 BST", "script\t09:00 BST"], "\(fromProject.outcome.error ?? "")")
    let own = try logs(
      "local map = waymark.map{ \(Self.melbourne) }\nprint('script', os.date('%H:%M %Z'))", plugins: ["p.lua": plugin],
      project: project)
    #expect(own.logs == ["plugin\t09:00 AEST", "script\t09:00 AEST"])
  }

  @Test("Zone abbreviations come from the TZif file of the zone")
  func abbreviations() throws {
    let table = try #require(ZoneAbbreviations.table(of: "Australia/Melbourne"))
    #expect(table.types.contains { $0.name == "AEST" && $0.offset == 36000 && !$0.isDST })
    #expect(table.types.contains { $0.name == "AEDT" && $0.offset == 39600 && $0.isDST })
    #expect(ZoneAbbreviations.parse(Array("TZif2 truncated".utf8)) == nil)
    #expect(ZoneAbbreviations.table(of: "../../etc/passwd") == nil)
  }
}
