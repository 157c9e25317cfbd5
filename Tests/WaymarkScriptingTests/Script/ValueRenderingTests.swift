import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `print`, `tostring`, `inspect`, `map:log` and expectation messages never show a memory
/// address, so a trace is the same on every run (docs/plugins.md, "Printing values").
@Suite struct ValueRenderingTests {
  func run(_ script: String, plugins: [String: String] = [:]) throws -> ScriptOutcome {
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    for (name, source) in plugins { try folder.write("plugins/" + name, source) }
    try folder.write("demo.lua", script)
    return ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
  }

  func logs(_ outcome: ScriptOutcome) -> [String] {
    outcome.records.filter { $0.event == .log }.compactMap(\.message)
  }

  @Test func tablesPrintWithSortedKeysAndNoAddress() throws {
    let outcome = try run(
      """
      local map = waymark.map{}
      local m = map:add_marker{ id = "sydney", position = { lat = 0, lng = 0 } }
      local t = { 1, 2, "three", x = { y = 1 }, ["two words"] = true, [10] = false, [1.5] = 0.5, f = print, m = m }
      t.self = t
      print(t)
      print(m, map, print, nil, 0/0, 3.0, coroutine.create(print))
      map:log({ b = 2, a = 1 }, "plain")
      print(tostring({ 1 }), inspect("a \\"quote\\"\\n"), inspect({}), inspect({ [{ 2 }] = "b", [{ 1 }] = "a" }))
      local deep = {}
      local cursor = deep
      for _ = 1, 20 do cursor.next = {}; cursor = cursor.next end
      print(deep)
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(
      logs(outcome) == [
        #"{ 1, 2, "three", [1.5] = 0.5, [10] = false, f = <function>, m = marker "sydney", self = <cycle>, ["two words"] = true, x = { y = 1 } }"#,
        "marker \"sydney\"\tmap\t<function>\tnil\tnan\t3.0\t<thread>",
        "{ a = 1, b = 2 }\tplain",
        [#"{ 1 }"#, #""a \"quote\"\n""#, "{}", #"{ [{ 1 }] = "a", [{ 2 }] = "b" }"#].joined(separator: "\t"),
        "{ next = " + String(repeating: "{ next = ", count: 15) + "{...}" + String(repeating: " }", count: 16),
      ])
  }

  @Test func printOfAnyValueIsTheSameInTwoRuns() throws {
    let script = """
      local map = waymark.map{ plugins = { "plugins" } }
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
      local keys = {}
      for i = 1, 50 do keys["key" .. i] = { i, tostring(i) } end
      keys[{}] = print
      keys[print] = {}
      print(keys, tostring(keys), setmetatable({}, { __index = {} }))
      map:tap(m)
      """
    let plugin = [
      "p.lua": """
      return { did_tap_marker = function(map, marker)
        print(marker, map, {}, function() end, { [marker] = marker.position })
        map:log(marker.position, tostring(marker))
      end }
      """
    ]
    let first = try run(script, plugins: plugin), second = try run(script, plugins: plugin)
    #expect(first.error == nil, "\(first.error ?? "")")
    #expect(logs(first).count == 3)
    #expect(logs(first) == logs(second))
    #expect(!logs(first).contains { $0.contains("0x") || $0.contains("table:") || $0.contains("function:") })
  }

  @Test func aTooLargeValueIsCutWithAnEllipsis() throws {
    let outcome = try run(
      """
      local big = {}
      for i = 1, 20000 do big[i] = "item" end
      print(big)
      """)
    let text = try #require(logs(outcome).first)
    let size = text.utf8.count, isCut = text.contains("…")
    #expect(isCut)
    #expect(size < 70_000)
  }

  @Test func aFailingTostringMetamethodIsShownNotRaised() throws {
    let outcome = try run(
      """
      print(setmetatable({}, { __tostring = function() return "point(1, 2)" end }))
      print({ setmetatable({}, { __tostring = function() error("no") end }) })
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(logs(outcome).first == "point(1, 2)")
    #expect(logs(outcome).last?.hasPrefix("{ <__tostring failed: ") == true)
  }

  @Test func expectEqComparesTablesDeeplyAndNamesTheFirstDifference() throws {
    let outcome = try run(
      """
      expect_eq({ 1, 2 }, { 1, 2 })
      expect_eq({ a = { b = { 1, 2 } } }, { a = { b = { 1, 2 } } })
      local cycle = {}
      cycle.me = cycle
      local other = {}
      other.me = other
      expect_eq(cycle, other)
      expect_eq({ 1, { 2, 3 }, name = "x" }, { 1, { 2, 4 }, name = "x" }, "deep")
      expect_eq({ a = 1 }, { a = 1, ["b c"] = 2 })
      expect_eq(0.1 + 0.2, 0.3)
      expect_eq("a", 1)
      """)
    let failures = outcome.failures.map { String($0[$0.range(of: "demo.lua")!.lowerBound...]) }
    #expect(
      failures == [
        #"demo.lua:8: deep: expected { 1, { 2, 4 }, name = "x" }, got { 1, { 2, 3 }, name = "x" } (first difference at [2][2]: expected 4, got 3)"#,
        #"demo.lua:9: expected { a = 1, ["b c"] = 2 }, got { a = 1 } (first difference at ["b c"]: expected 2, got nil)"#,
        "demo.lua:10: expected 0.3, got 0.30000000000000004",
        #"demo.lua:11: expected 1, got "a""#,
      ])
  }
}
