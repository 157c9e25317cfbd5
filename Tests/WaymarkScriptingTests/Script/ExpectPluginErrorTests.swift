import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// Every `plugin_error` and warning of a run is listed; `expect_plugin_error(pattern)` marks
/// the ones a script expects, and fails the run when none happens.
@Suite struct ExpectPluginErrorTests {
  static let buggy = """
    local p = { name = "buggy" }
    function p.did_tap_marker(map, marker)
      local x = nil
      return x.field
    end
    function p.did_tap_markr() end
    return p
    """

  func run(_ body: String) throws -> ScriptOutcome {
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    try folder.write("plugins/buggy.lua", Self.buggy)
    try folder.write(
      "demo.lua",
      """
      local map = waymark.map{ plugins = { "plugins" } }
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
      \(body)
      """)
    return ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
  }

  @Test func everyPluginErrorAndWarningIsListedAsOneLine() throws {
    let outcome = try run("map:tap(m)")
    #expect(outcome.failures.isEmpty)
    #expect(outcome.pluginProblems.map(\.isWarning) == [true, false])
    #expect(outcome.pluginProblems.allSatisfy { !$0.isExpected })
    let line = try #require(outcome.pluginProblems.last?.line)
    #expect(line.hasPrefix("plugin_error: buggy did_tap_marker: /tmp/"))
    #expect(line.hasSuffix("plugins/buggy.lua:4: attempt to index a nil value (local 'x')"))
    #expect(outcome.records[outcome.pluginProblems[1].index].event == .pluginError)
  }

  @Test func aDeclaredPatternMarksTheErrorsItMatches() throws {
    let outcome = try run(
      """
      map:tap(m)
      expect_plugin_error("attempt to index a nil")
      """)
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    #expect(outcome.pluginProblems.filter { !$0.isWarning }.allSatisfy { $0.isExpected })
    #expect(outcome.pluginProblems.filter(\.isWarning).allSatisfy { !$0.isExpected })
  }

  @Test func aPatternNothingMatchedIsAFailedExpectationWithItsLine() throws {
    let outcome = try run(
      """
      expect_plugin_error("timed out")
      map:tap(m)
      """)
    #expect(outcome.failures.count == 1)
    #expect(
      outcome.failures.first?.hasSuffix(#"demo.lua:3: expected a plugin_error matching "timed out", none happened"#)
        == true)
    #expect(outcome.records.last?.event == .expectFailed)
    #expect(outcome.pluginProblems.allSatisfy { !$0.isExpected })
  }

  @Test func aMalformedPatternIsLookedForAsPlainText() throws {
    let outcome = try run(
      """
      map:tap(m)
      expect_plugin_error("(local 'x'")
      """)
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }
}
