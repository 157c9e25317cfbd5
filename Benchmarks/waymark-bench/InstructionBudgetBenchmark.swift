// instruction_budget_cost: a handler looping 10^6 times with the instruction budget on
// (fast counting, as `waymark test` uses it, replays included) against no budget at all;
// and exact counting (what a replay pays) against no budget.

import Foundation
import LuaKit
import WaymarkCore
import WaymarkScripting

/// The `instruction_budget_cost` benchmark.
enum InstructionBudgetBenchmark {
  static let callsPerRun = 40
  /// The same handler as `watchdog_cost`'s.
  static let plugin = WatchdogCostBenchmark.plugin

  static var benchmark: Benchmark {
    Benchmark(
      name: "instruction_budget_cost",
      summary: "a handler looping 10^6 times with the instruction budget on vs off (and exact counting)", run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let folder = try PluginBenchFolder(["spin.lua": plugin])
    let map = try MapView(camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 4))
    map.trace.isEnabled = false
    let marker = try map.addMarker(MarkerOptions(position: map.camera.target))
    func configuration(_ counting: LuaInstructionCounting?) -> PluginHost.Configuration {
      var configuration = PluginHost.Configuration()
      configuration.timeBudget = counting == nil ? nil : .seconds(10)
      configuration.instructionBudget = counting == nil ? nil : 100_000_000
      configuration.instructionCounting = counting ?? .fast
      return configuration
    }
    context.progress("instruction_budget_cost: \(callsPerRun) calls per run and setting")
    var replays = 0
    let samples = try context.measure { _ in
      // Fresh hosts each run: fast counting's request for a replay is sticky per state.
      let fast = try folder.host(for: map, configuration: configuration(.fast))
      let exact = try folder.host(for: map, configuration: configuration(.exact))
      let none = try folder.host(for: map, configuration: configuration(nil))
      var fastTime = 0.0, exactTime = 0.0, noneTime = 0.0
      for _ in 0..<callsPerRun {  // interleaved, so drifts hit all alike
        fastTime += seconds { blackHole(fast.mapView(map, receive: .didTapMarker(marker))) }
        exactTime += seconds { blackHole(exact.mapView(map, receive: .didTapMarker(marker))) }
        noneTime += seconds { blackHole(none.mapView(map, receive: .didTapMarker(marker))) }
      }
      // A run whose fast counting could not judge a call is replayed with exact counting
      // (ScriptRunner does so): that replay is part of its cost.
      if fast.needsExactReplay {
        replays += 1
        fastTime += exactTime
      }
      let perCall = 1e3 / Double(callsPerRun)
      return ["fast": fastTime * perCall, "exact": exactTime * perCall, "none": noneTime * perCall]
    }
    if replays > 0 { context.progress("instruction_budget_cost: \(replays) run(s) needed an exact replay") }
    return [
      Figure(
        name: "instruction_budget_cost", unit: "ms", samples: samples["fast"],
        baseline: "the same handler with no budget", baselineSamples: samples["none"],
        ratioMeaning: "instruction budget on (fast counting, replays included) / no budget (1 = free)",
        goal: Goal(text: "ratio <= 1.10") { _, ratio in ratio <= 1.10 }),
      Figure(
        name: "instruction_budget_cost.exact", unit: "ms", samples: samples["exact"],
        baseline: "the same handler with no budget", baselineSamples: samples["none"],
        ratioMeaning: "exact counting (a count hook, what a replay pays) / no budget",
        goal: Goal(text: "ratio <= 2.5 (Lua 5.4's count hook)") { _, ratio in ratio <= 2.5 }),
    ]
  }
}
