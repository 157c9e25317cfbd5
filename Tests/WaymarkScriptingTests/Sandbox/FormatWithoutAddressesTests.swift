import Foundation
import Testing

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `string.format` and failed expectations show no memory address, as `tostring` does not:
/// `%s` of a table, function or coroutine is its rendering, `%p` numbers objects 0x1, 0x2,
/// ... in order of their first `%p`, so a trace is the same on every run (issue 30;
/// docs/plugins.md, "Printing values"). Everything else is Lua's `string.format`.
@Suite struct FormatWithoutAddressesTests {
  func run(_ script: String, plugin: String? = nil) throws -> ScriptOutcome {
    let folder = try PluginFolder(["demo.lua": script])
    if let plugin {
      try FileManager.default.createDirectory(atPath: folder.file("plugins/p"), withIntermediateDirectories: true)
      try folder.write("plugins/p/p.lua", plugin)
    }
    return ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
  }

  func logs(_ outcome: ScriptOutcome) -> [String] {
    outcome.records.filter { $0.event == .log }.compactMap(\.message)
  }

  @Test func percentSShowsWhatTostringShows() throws {
    let outcome = try run(
      """
      local t = { 1, name = "x" }
      print(string.format("%s|%s|%s|%8s|", t, print, coroutine.create(print), {}))
      print(("%s"):format(setmetatable({}, { __tostring = function() return "custom" end })))
      print(string.format("%s", t) == tostring(t))
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(logs(outcome) == ["{ 1, name = \"x\" }|<function>|<thread>|      {}|", "custom", "true"])
  }

  @Test func percentPNumbersObjectsInOrderOfFirstAppearance() throws {
    let outcome = try run(
      """
      local a, b = {}, function() end
      print(string.format("%p %p %p|%-5p|%4p|", a, b, a, "text", {}))
      print(string.format("%p %p %p", 1, nil, true))
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(logs(outcome) == ["0x1 0x2 0x1|0x3  | 0x4|", "(null) (null) (null)"])
  }

  @Test func eachPluginNumbersItsOwnObjects() throws {
    let plugin = """
      local p = { name = "p" }
      function p.did_tap_marker(map, marker) print(string.format("%p %p", {}, marker)) return true end
      return p
      """
    let outcome = try run(
      """
      local map = waymark.map{ plugins = { "plugins/p" } }
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
      print(string.format("%p", map))
      map:tap(m)
      """, plugin: plugin)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(logs(outcome) == ["0x1", "0x1 0x2"])
  }

  @Test func errorsAreLuas() throws {
    let outcome = try run(
      """
      local function message(...) return select(2, pcall(string.format, ...)) end
      print(message("%#p", {}))
      print(message("%10.3p", {}))
      print(message("%05p", {}))
      print(message("%s %p", 1))
      print(select(2, pcall(function() return ("%d"):format({}) end)))
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    let lines = logs(outcome)
    #expect(
      lines.prefix(4) == [
        "invalid conversion specification: '%#p'", "invalid conversion specification: '%10.3p'",
        "invalid conversion specification: '%05p'", "bad argument #3 to 'string.format' (no value)",
      ])
    #expect(lines.last?.hasSuffix("demo.lua:6: bad argument #1 to 'format' (number expected, got table)") == true)
  }

  @Test func aFailedExpectationsMessageShowsNoAddress() throws {
    let outcome = try run(
      """
      expect(false, { 1, 2 })
      expect(false, print)
      """)
    #expect(outcome.failures.count == 2)
    #expect(outcome.failures.first?.hasSuffix("demo.lua:1: { 1, 2 }") == true, "\(outcome.failures)")
    #expect(outcome.failures.last?.hasSuffix("demo.lua:2: <function>") == true, "\(outcome.failures)")
  }
}
