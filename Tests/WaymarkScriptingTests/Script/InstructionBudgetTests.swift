import Foundation
import LuaKit
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// With an instruction budget, whether a slow handler is an error depends on how many
/// instructions it runs, never on the machine or its load: the same trace every run.
@Suite struct InstructionBudgetTests {
  static let plugin = """
    local p = { name = "work" }
    function p.did_tap_at_coordinate(map, coordinate)   -- about 3 instructions a step
      local s = 0
      for i = 1, map.user_steps do s = s + i % 7 end
    end
    return p
    """

  /// Runs a script that taps `taps` times with handlers of `steps` loop steps.
  func run(steps: Int, taps: Int = 3, counting: LuaInstructionCounting = .fast) throws -> ScriptOutcome {
    try run(in: PluginFolder(), steps: steps, taps: taps, counting: counting)
  }

  func run(in folder: PluginFolder, steps: Int, taps: Int = 3, counting: LuaInstructionCounting = .fast) throws
    -> ScriptOutcome
  {
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    try folder.write("plugins/work.lua", Self.plugin.replacingOccurrences(of: "map.user_steps", with: "\(steps)"))
    try folder.write(
      "demo.lua",
      """
      local map = waymark.map{ plugins = { "plugins" } }
      for _ = 1, \(taps) do map:tap{ x = 100, y = 100 } end
      """)
    var options = ScriptOptions.forTests
    options.plugins.instructionBudget = 2_000_000
    options.plugins.instructionCounting = counting
    options.plugins.timeBudget = .seconds(30)
    return ScriptRunner.run(folder.file("demo.lua"), options: options)
  }

  func errors(_ outcome: ScriptOutcome) -> [String] {
    outcome.records.filter { $0.event == .pluginError }.compactMap(\.message)
  }

  // Whether the fast path needed a replay depends on the machine's speed (a sanitized build
  // on a busy machine may replay even a quick handler), so this judges what a user sees: no
  // error, and the same trace as exact counting. What a replay costs is `waymark-bench
  // instruction_budget_cost`'s business.
  @Test func aQuickHandlerIsJudgedTheSameByFastAndExactCounting() throws {
    let folder = try PluginFolder()
    let fast = try run(in: folder, steps: 10, counting: .fast)
    let exact = try run(in: folder, steps: 10, counting: .exact)
    #expect(errors(fast).isEmpty)
    #expect(fast.records.map(TraceJSON.line) == exact.records.map(TraceJSON.line))
  }

  @Test func aHandlerWithinItsBudgetButLongIsJudgedByAnExactReplay() throws {
    // 300,000 instructions: within 2,000,000, but longer than 2,000,000 instructions take
    // at the fastest rate any machine runs (0.2 ms), so fast counting cannot judge it.
    let outcome = try run(steps: 100_000)
    #expect(errors(outcome).isEmpty, "\(errors(outcome))")
    #expect(outcome.wasReplayedExactly)
  }

  @Test func aHandlerPastItsBudgetIsAnErrorEveryTimeOnEveryRun() throws {
    var traces: [[String]] = []
    let folder = try PluginFolder()
    for counting in [LuaInstructionCounting.fast, .fast, .exact] {
      let outcome = try run(in: folder, steps: 1_000_000, counting: counting)
      traces.append(outcome.records.map(TraceJSON.line))
      #expect(errors(outcome).count == 3)
      #expect(
        errors(outcome).allSatisfy { $0.contains("work.lua:4: instruction budget of 2000000 instructions exceeded") })
    }
    #expect(traces[0] == traces[1] && traces[1] == traces[2])
  }
}
