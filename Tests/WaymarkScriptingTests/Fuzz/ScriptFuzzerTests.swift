import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `waymark fuzz`: random valid input finds planted bugs, shrinks them to a shortest input
/// that fails the same way, and writes a script that reproduces them; the same seed makes
/// the same runs.
@Suite struct ScriptFuzzerTests {
  static let script = """
    local map = waymark.map{ camera = { target = { lat = 48.85, lng = 2.35 }, zoom = 12 }, plugins = { "plugins" } }
    map:add_marker{ id = "bakery", position = { lat = 48.85, lng = 2.35 }, title = "Bakery" }
    map:add_marker{ id = "cafe", position = { lat = 48.86, lng = 2.34 }, title = "Cafe" }
    map:add_marker{ id = "pin", position = { lat = 48.84, lng = 2.36 }, title = "Pin", draggable = true }

    """

  /// A folder with the script (plus `extra`) and the given plugins.
  func folder(plugins: [String: String], extra: String = "") throws -> PluginFolder {
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    for (name, source) in plugins { try folder.write("plugins/" + name, source) }
    try folder.write("shop_test.lua", Self.script + extra)
    return folder
  }

  func options(seed: UInt64 = 42, runs: Int = 20) -> FuzzOptions {
    var options = FuzzOptions()
    options.seed = seed
    options.runs = runs
    options.events = 40
    options.script = .forTests
    return options
  }

  static let thirdTap = [
    "shop.lua": """
    local p = { name = "shop", taps = {} }
    function p.did_tap_marker(map, marker)
      p.taps[marker.id] = (p.taps[marker.id] or 0) + 1
      if p.taps[marker.id] == 3 then
        local basket = nil
        return basket.total > 0
      end
    end
    return p
    """
  ]

  @Test func aPlantedBugIsFoundAndShrunkToTheInputsItNeeds() throws {
    let folder = try folder(plugins: Self.thirdTap)
    let report = ScriptFuzzer.fuzz(folder.file("shop_test.lua"), options: options())
    let failure = try #require(report.failure)
    #expect(failure.kind == "plugin_error")
    #expect(failure.message.hasSuffix("plugins/shop.lua:6: attempt to index a nil value (local 'basket')"))
    #expect(report.failingInputs.count >= 3)
    // Three taps on the same marker, nothing else.
    #expect(report.shrunkInputs.count == 3)
    #expect(Set(report.shrunkInputs).count == 1)
    #expect(report.shrunkInputs[0].hasPrefix("map:tap(map:marker("))
    // The shrunk inputs fail the same way when replayed.
    let again = ScriptFuzzer.replay(folder.file("shop_test.lua"), inputs: report.shrunkInputs, options: .forTests)
    #expect(again?.signature == failure.signature)
  }

  @Test func theSameSeedMakesTheSameRuns() throws {
    let folder = try folder(plugins: Self.thirdTap)
    let first = ScriptFuzzer.fuzz(folder.file("shop_test.lua"), options: options(seed: 7))
    let second = ScriptFuzzer.fuzz(folder.file("shop_test.lua"), options: options(seed: 7))
    // Past seed 7's runs (7 to 26), so no run of one is a run of the other.
    let other = ScriptFuzzer.fuzz(folder.file("shop_test.lua"), options: options(seed: 30))
    #expect(first.failingSeed == second.failingSeed && first.failingInputs == second.failingInputs)
    #expect(first.shrunkInputs == second.shrunkInputs)
    #expect(first.failingInputs != other.failingInputs)
  }

  @Test func theReproducerFailsTheSameWayWithWaymarkRun() throws {
    let folder = try folder(plugins: Self.thirdTap)
    let script = folder.file("shop_test.lua")
    let report = ScriptFuzzer.fuzz(script, options: options())
    let out = folder.file("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let text = FuzzReproducer.source(
      script: script, source: LuaSource(try String(contentsOfFile: script, encoding: .utf8)), pluginFolders: [],
      folder: out, report: report, command: "waymark fuzz shop_test.lua"
    ).text
    try folder.write("out/repro.lua", text)
    let outcome = ScriptRunner.run(folder.file("out/repro.lua"), options: .forTests)
    #expect(outcome.error == nil, "\(outcome.error ?? "")\n\(text)")
    #expect(outcome.failures.count == 1)
    #expect(
      outcome.failures.first?.contains("plugin errors: expected {}, got { { handler = \"did_tap_marker\"") == true)
    let errors = outcome.pluginProblems.filter { !$0.isWarning }.map(\.line)
    #expect(errors == [report.failure?.message])
  }

  @Test func aBrokenInvariantOfTheScriptIsAFailure() throws {
    let folder = try folder(
      plugins: [:],
      extra: """
        waymark.invariant("never turned past 90 degrees", function(map)
          return map.camera.bearing <= 90 or map.camera.bearing >= 270
        end)
        """)
    let report = ScriptFuzzer.fuzz(folder.file("shop_test.lua"), options: options())
    let failure = try #require(report.failure)
    #expect(failure.kind == "expectation")
    #expect(failure.message == #"invariant "never turned past 90 degrees" does not hold"#)
    #expect(
      report.shrunkInputs.count <= 3 && report.shrunkInputs.count < report.failingInputs.count, "\(report.shrunkInputs)"
    )
  }

  @Test func correctPluginsPassEveryRun() throws {
    let folder = try folder(
      plugins: [
        "window.lua": """
        return { marker_info_window = function(map, marker) return { text = marker.title, style = "title" } end,
          did_end_dragging_marker = function(map, marker) map:log(marker.position) end }
        """
      ],
      extra: """
        waymark.invariant("a window only for the selected marker", function(map)
          return map.info_window == nil or map.info_window.marker == map.selected_marker
        end)
        """)
    let report = ScriptFuzzer.fuzz(folder.file("shop_test.lua"), options: options(runs: 10))
    #expect(report.failure == nil, "\(report.failure?.message ?? "")")
    #expect(report.runs == 10)
    #expect(report.inputs == 400)
  }

  @Test func aScriptWithoutAMapCannotBeFuzzed() throws {
    let folder = try PluginFolder(["empty_test.lua": "print('no map')\n"])
    let report = ScriptFuzzer.fuzz(folder.file("empty_test.lua"), options: options())
    #expect(report.problem == "the script makes no map to fuzz (call waymark.map{...})")
  }

  @Test func ddminKeepsOnlyWhatTheFailureNeeds() {
    var replays = 0
    let inputs = (0..<40).map { "input \($0)" }
    let shrunk = ScriptFuzzer.shrink(inputs, limit: 1000, replays: &replays) { candidate in
      candidate.contains("input 7") && candidate.contains("input 31")
    }
    #expect(shrunk == ["input 7", "input 31"])
    #expect(replays < 100)
  }
}

/// `waymark fuzz` on a clustered map (issue 34): taps on cluster and item markers, zooms and
/// pans, with the clustering's invariants checked after every input.
@Suite struct ClusteredFuzzTests {
  @Test("The store locator with cluster_zoom keeps every invariant through random input")
  func theStoreLocatorSurvivesFuzzing() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var options = FuzzOptions()
    options.seed = 34
    options.runs = 4
    options.events = 60
    options.script = .forTests
    let report = ScriptFuzzer.fuzz(root.appendingPathComponent("scripts/cluster_zoom.lua").path, options: options)
    #expect(report.problem == nil)
    #expect(report.failure == nil, "\(report.failure?.message ?? ""): \(report.shrunkInputs)")
    #expect(report.inputs == 240)
  }

  @Test("R62, R64: the fuzzer adds and removes the items of a script's managers; a bug they reach is shrunk to adds")
  func itemsAreAddedAndRemoved() throws {
    let folder = try PluginFolder()
    try folder.write(
      "clusters_test.lua",
      """
      local map = waymark.map{ camera = { target = { lat = -35, lng = 151 }, zoom = 10 } }
      local c = map:clusters{ animate = false }
      c:add{ id = "seed", position = { lat = -35, lng = 151 } }
      waymark.invariant("at most three items", function(map)
        local n = 0
        for _, cluster in ipairs(map:cluster_managers()[1]:clusters_at(10)) do n = n + cluster.count end
        return n <= 3
      end)
      """)
    var options = FuzzOptions()
    options.seed = 5
    options.runs = 10
    options.events = 40
    options.script = .forTests
    let report = ScriptFuzzer.fuzz(folder.file("clusters_test.lua"), options: options)
    let failure = try #require(report.failure)
    #expect(failure.message.contains("at most three items"), "\(failure.message)")
    #expect(report.failingInputs.contains { $0.hasPrefix("map:cluster_managers()[1]:remove(") })
    // The seed and three items added: nothing else is needed.
    #expect(report.shrunkInputs.count == 3, "\(report.shrunkInputs)")
    #expect(report.shrunkInputs.allSatisfy { $0.hasPrefix("map:cluster_managers()[1]:add{ id = \"fuzz ") })
  }
}
