// lua_dispatch: ns per did_tap_marker call through one plugin (reads marker.id, returns
// true) against the floor: the same Lua function, in the same state and the same run,
// called from a C loop with lua_pcall and a marker userdata whose __index is a C function
// reading a C struct (CLuaFloor): the least a host can do.
// watchdog_cost: a handler looping 10^6 times, with the time budget on against off.

import CLua
import CLuaFloor
import Foundation
import LuaKit
import WaymarkCore
import WaymarkScripting

/// A temporary folder of plugin files, removed on deinit.
final class PluginBenchFolder {
  let path: String

  init(_ files: [String: String]) throws {
    path = NSTemporaryDirectory() + "waymark-bench-" + UUID().uuidString.prefix(8)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, source) in files { try source.write(toFile: path + "/" + name, atomically: true, encoding: .utf8) }
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Loads the folder into a new host of `map`, failing on any diagnostic.
  func host(for map: MapView, configuration: PluginHost.Configuration = PluginHost.Configuration()) throws
    -> PluginHost
  {
    let host = PluginHost(map: map, configuration: configuration)
    let problems = host.loadPlugins(from: [path])
    guard problems.isEmpty else { throw BenchmarkFailure(description: "plugins: \(problems)") }
    return host
  }
}

/// The `lua_dispatch` benchmark.
enum LuaDispatchBenchmark {
  static let calls = 1_000_000
  /// How many alternating slices of host and floor calls a sample takes.
  static let slices = 20
  static let plugin = """
    local p = { name = "dispatch" }
    function p.setup(map) p.map = map; p.marker = map:marker("melbourne") end
    function p.did_tap_marker(map, marker) return marker.id ~= nil end
    return p
    """

  static var benchmark: Benchmark {
    Benchmark(
      name: "lua_dispatch",
      summary: "ns per did_tap_marker through one plugin vs plain C (lua_pcall, a C struct behind a C __index)",
      run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let folder = try PluginBenchFolder(["dispatch.lua": plugin])
    let map = try MapView(
      camera: CameraPosition(target: Coordinate(latitude: -37.81969, longitude: 144.966085), zoom: 4))
    map.trace.isEnabled = false
    let marker = try map.addMarker(MarkerOptions(position: map.camera.target, id: "melbourne"))
    // The default budget's machinery, at a value no descheduling reaches: on a heavily
    // loaded machine a call stalled past the default 50 ms was stopped and the run aborted.
    var configuration = PluginHost.Configuration()
    configuration.timeBudget = .seconds(10)
    let host = try folder.host(for: map, configuration: configuration)
    guard let state = host.luaState(ofPlugin: "dispatch") else { throw BenchmarkFailure(description: "no state") }
    let L = state.unsafeMainThread
    let base = lua_gettop(L)
    defer { lua_settop(L, base) }
    _ = lua_getglobal(L, "__waymark_plugin")
    _ = lua_getfield(L, base + 1, "did_tap_marker")
    _ = lua_getfield(L, base + 1, "map")
    let function = base + 2, mapArg = base + 3
    context.progress("lua_dispatch: \(calls) calls per run")
    let samples = try context.measure { _ in
      // In alternating slices, so that a change of the machine's speed during a sample (a
      // shared machine's neighbours, its clock) reaches both alike.
      var answers = 0, floorAnswers = 0
      var hosted = 0.0, floor = 0.0
      for _ in 0..<slices {
        hosted += seconds {
          for _ in 0..<calls / slices where host.mapView(map, receive: .didTapMarker(marker)).isHandled { answers += 1 }
        }
        floor += seconds { floorAnswers += waymark_floor_dispatch(L, function, mapArg, calls / slices) }
      }
      guard answers == calls, floorAnswers == calls else {
        throw BenchmarkFailure(description: "lua_dispatch: a call returned false")
      }
      return ["host": hosted / Double(calls) * 1e9, "floor": floor / Double(calls) * 1e9]
    }
    return [
      Figure(
        name: "lua_dispatch", unit: "ns", samples: samples["host"],
        baseline:
          "plain C: lua_pcall of the same handler with a marker userdata whose __index is a C function reading a C struct",
        baselineSamples: samples["floor"], ratioMeaning: "host dispatch time / the plain C floor (lower is better)",
        goal: Goal(text: "ratio <= 2") { _, ratio in ratio <= 2 })
    ]
  }
}

/// The `watchdog_cost` benchmark.
enum WatchdogCostBenchmark {
  static let callsPerRun = 40
  static let plugin = """
    local p = { name = "spin" }
    function p.did_tap_marker(map, marker)
      local x = 0
      for i = 1, 1000000 do x = x + i end
      return x < 0
    end
    return p
    """

  static var benchmark: Benchmark {
    Benchmark(
      name: "watchdog_cost", summary: "a handler looping 10^6 times with the time budget on vs off", run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let folder = try PluginBenchFolder(["spin.lua": plugin])
    let map = try MapView(camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 4))
    map.trace.isEnabled = false
    let marker = try map.addMarker(MarkerOptions(position: map.camera.target))
    var on = PluginHost.Configuration()
    on.timeBudget = .seconds(2)
    var off = PluginHost.Configuration()
    off.timeBudget = nil
    let budgeted = try folder.host(for: map, configuration: on)
    let unbudgeted = try folder.host(for: map, configuration: off)
    context.progress("watchdog_cost: \(callsPerRun) calls per run and setting")
    let samples = context.measure { _ in
      var onTime = 0.0, offTime = 0.0
      for _ in 0..<callsPerRun {  // interleaved, so drifts hit both alike
        onTime += seconds { blackHole(budgeted.mapView(map, receive: .didTapMarker(marker))) }
        offTime += seconds { blackHole(unbudgeted.mapView(map, receive: .didTapMarker(marker))) }
      }
      return ["on": onTime / Double(callsPerRun) * 1e3, "off": offTime / Double(callsPerRun) * 1e3]
    }
    return [
      Figure(
        name: "watchdog_cost", unit: "ms", samples: samples["on"], baseline: "the same handler with no time budget",
        baselineSamples: samples["off"], ratioMeaning: "budget on / budget off (1 = free)",
        goal: Goal(text: "ratio <= 1.05") { _, ratio in ratio <= 1.05 })
    ]
  }
}
