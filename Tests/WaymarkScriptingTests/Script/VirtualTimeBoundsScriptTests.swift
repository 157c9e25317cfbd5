import Foundation
import LuaKit
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// A script's `map:advance` and `map:settle` end by themselves whatever runs: durations are
/// at most ten minutes, one call runs at most ``ScriptOptions/taskLimit`` frames and timers,
/// and the script's budget stops them between two frames, each with a Lua error at the
/// script's line that names the bound.
@Suite struct VirtualTimeBoundsScriptTests {
  /// Runs `script` (as demo.lua) with `plugins` in plugins/, under `options`.
  func run(_ script: String, plugins: [String: String] = [:], options: ScriptOptions = .forTests) throws
    -> ScriptOutcome
  {
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    for (name, source) in plugins { try folder.write("plugins/" + name, source) }
    try folder.write("demo.lua", "local map = waymark.map{ plugins = { \"plugins\" } }\n" + script)
    return ScriptRunner.run(folder.file("demo.lua"), options: options)
  }

  func errors(_ outcome: ScriptOutcome) -> [String] {
    outcome.records.filter { $0.event == .pluginError }.compactMap(\.message)
  }

  @Test func aBillionSecondAnimationGestureDragOrMarkerAnimationIsRefusedAtItsLine() throws {
    let outcome = try run(
      """
      local m = map:add_marker{ position = { lat = -33.87, lng = 151.21 } }
      local messages = {}
      for _, start in ipairs({
        function() map:animate({ zoom = 8 }, { duration = 1e9 }) end,
        function() map:pan({ x = 10, y = 0 }, { duration = 1e9 }) end,
        function() map:drag(m, { lat = -37.8, lng = 144.9 }, { duration = 1e9 }) end,
        function() map:animate_marker(m, { lat = -37.8, lng = 144.9 }, { duration = 601 }) end,
      }) do
        local ok, message = pcall(start)
        messages[#messages + 1] = ok and "accepted" or message
      end
      map:advance(1e9)
      expect(map.camera.zoom ~= 8)
      error(table.concat(messages, "|"))
      """)
    let messages = try #require(outcome.error).split(separator: "|").map(String.init)
    let tooLong = "is more than 600 (the longest duration, ten minutes)"
    #expect(messages.count == 4)
    #expect(messages[0].hasSuffix("demo.lua:5: animate.duration: 1000000000 \(tooLong)"), "\(messages[0])")
    #expect(messages[1].hasSuffix("demo.lua:6: pan.duration: 1000000000 \(tooLong)"), "\(messages[1])")
    #expect(messages[2].hasSuffix("demo.lua:7: drag.duration: 1000000000 \(tooLong)"), "\(messages[2])")
    #expect(messages[3].hasSuffix("demo.lua:8: animate_marker.duration: 601 \(tooLong)"), "\(messages[3])")
    #expect(outcome.failures.isEmpty)
  }

  @Test func aTimerThatReArmsItselfStopsAdvanceAtTheTaskLimitWithTheScriptsLine() throws {
    var options = ScriptOptions.forTests
    options.taskLimit = 500
    let outcome = try run(
      """
      local fired = 0
      local function again() fired = fired + 1; map:after(0, again) end
      map:after(0, again)
      local ok, message = pcall(function() map:advance(1e9) end)
      expect(not ok)
      expect(fired > 400 and fired <= 500)
      error(message, 0)
      """, options: options)
    let message = try #require(outcome.error)
    #expect(
      message.contains("demo.lua:5: advance: stopped at 0 s of virtual time: it ran 500 frames and timers"),
      "\(message)")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  /// A plugin starts a ten-minute animation in `setup` and runs past its instruction budget
  /// on every frame: the five-failures rule disables it, and settle then ends.
  @Test func aPluginFailingOnEveryFrameIsDisabledAndSettleEnds() throws {
    var options = ScriptOptions.forTests
    options.plugins.instructionBudget = 100_000
    options.plugins.instructionCounting = .exact
    options.plugins.timeBudget = .seconds(30)
    let outcome = try run(
      """
      map:settle(700)
      expect_eq(map.camera.zoom, 8)
      """,
      plugins: [
        "spin.lua": """
        local p = { name = "spin" }
        function p.setup(map) map:animate({ zoom = 8 }, { duration = 600 }) end
        function p.did_change_camera_position(map, camera)
          while true do end
        end
        return p
        """
      ], options: options)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    let errors = errors(outcome)
    #expect(errors.count == 6, "five failures, then the message that disables it: \(errors.count)")
    #expect(errors.last?.contains("disabled after 5 consecutive errors") == true)
  }

  /// The same plugin spending a little of its budget on every frame never fails: the
  /// script's own budget stops `settle` between two frames (36,000 frames of a few
  /// milliseconds each would run for minutes).
  @Test func settleStopsWhenTheScriptsBudgetRunsOutWhilePluginsWork() throws {
    var options = ScriptOptions.forTests
    options.scriptBudget = .milliseconds(300)
    options.plugins.timeBudget = .seconds(30)
    let outcome = try run(
      """
      map:settle(700)
      """,
      plugins: [
        "busy.lua": """
        local p = { name = "busy" }
        function p.setup(map) map:animate({ zoom = 8 }, { duration = 600 }) end
        function p.did_change_camera_position(map, camera)
          local s = 0
          for i = 1, 200000 do s = s + i % 7 end
        end
        return p
        """
      ], options: options)
    let message = try #require(outcome.error)
    #expect(message.contains("demo.lua:2: "), "\(message)")
    #expect(message.contains("the script ran past its time budget of 0.3 s (settle: stopped at "), "\(message)")
    #expect(message.contains("the script's time budget ran out; still pending: camera animation)"), "\(message)")
    #expect(errors(outcome).isEmpty)
    let idle = outcome.records.contains { $0.event == .callback(.idleAtCameraPosition) && $0.time > 500 }
    #expect(!idle, "the animation did not run to its end")
  }

  /// Each call is bounded, but a script may loop over long animations until its budget runs
  /// out: the trace's capacity bounds what the run holds, and the run says it was cut.
  @Test func aScriptLoopingOverLongAnimationsEndsAtTheTraceCapacity() throws {
    var options = ScriptOptions.forTests
    options.traceCapacity = 5_000
    let outcome = try run(
      """
      local z = 3
      while true do
        z = z == 3 and 10 or 3
        map:animate({ zoom = z }, { duration = 600 })
        map:advance(600)
      end
      """, options: options)
    let message = try #require(outcome.error)
    #expect(message.contains("demo.lua:6: advance: stopped at"), "\(message)")
    #expect(message.contains("the trace holds 5000 records, the most it keeps"), "\(message)")
    #expect(outcome.records.count == 5_000)
  }

  @Test func aRunWhoseTraceOverflowedEndsWithAnErrorSayingHowManyRecordsWereDropped() throws {
    var options = ScriptOptions.forTests
    options.traceCapacity = 50
    let outcome = try run("for _ = 1, 100 do map:tap{ x = 10, y = 10 } end", options: options)
    #expect(outcome.records.count == 50)
    let message = try #require(outcome.error)
    #expect(
      message.hasSuffix("demo.lua: the trace holds 50 records, the most a run keeps; 50 more were dropped"),
      "\(message)")
  }
}
