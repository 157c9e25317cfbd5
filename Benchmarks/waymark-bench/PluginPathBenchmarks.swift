// tap_path_lua: taps through the whole path (hit test among 100,000 markers, dispatch to 3
// plugins, default selection with a custom window) against the same path with a Swift
// delegate doing the same work.
// plugin_load_100: loading 100 small plugins, and the memory of an idle plugin.

import Foundation
import LuaKit
import WaymarkCore
import WaymarkScripting

/// The `tap_path_lua` benchmark.
enum TapPathLuaBenchmark {
  static let markerCount = 100_000
  static let tapsPerRun = 4_000
  static let plugins = [
    "a_veto.lua": "return { did_tap_marker = function(map, marker) return marker.id == '' end }",
    "b_window.lua":
      "return { marker_info_window = function(map, marker) return { text = marker.title, style = 'title' } end }",
    "c_close.lua": "return { did_close_info_window = function(map, marker) local _ = marker.id end }",
  ]

  /// The same three answers in Swift.
  final class SwiftDelegate: MapViewDelegate {
    func mapView(_ mapView: MapView, didTap marker: Marker) -> Bool { marker.id.isEmpty }
    func mapView(_ mapView: MapView, markerInfoWindow marker: Marker) -> InfoWindowContent? {
      try? InfoWindowContent(decoding: ["text": .string(marker.title ?? ""), "style": "title"])
    }
    func mapView(_ mapView: MapView, didCloseInfoWindowOf marker: Marker) { blackHole(marker.id) }
  }

  static var benchmark: Benchmark {
    Benchmark(
      name: "tap_path_lua", summary: "taps/s among 100k markers through 3 Lua plugins vs a Swift delegate",
      run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    context.progress("tap_path_lua: adding \(markerCount) markers")
    let map = try Continent.makeMap()
    try Continent.addMarkers(Continent.coordinates(count: markerCount, seed: 0x5441_5031)[...], to: map)
    try map.moveCamera(.zoomTo(7))  // a few thousand markers in view
    try map.settle()
    let visible = map.markers.filter { map.projection.contains($0.position) }
    guard visible.count > 100 else { throw BenchmarkFailure(description: "tap_path_lua: too few visible markers") }
    let folder = try PluginBenchFolder(plugins)
    let host = try folder.host(for: map)
    let swift = SwiftDelegate()
    let camera = map.camera
    func taps(_ delegate: DelegateEventHandler) throws -> Double {
      map.delegate = delegate
      try map.moveCamera(.setCamera(camera))
      try map.settle()
      return try seconds {
        for i in 0..<tapsPerRun { try map.tap(visible[(i &* 7919) % visible.count]) }
      }
    }
    context.progress("tap_path_lua: \(tapsPerRun) taps per run and delegate")
    let samples = try context.measure { _ in
      let lua = try taps(host)
      guard map.infoWindow?.kindName == "window" else {
        throw BenchmarkFailure(description: "tap_path_lua: no custom window")
      }
      let native = try taps(swift)
      return ["lua": Double(tapsPerRun) / lua, "swift": Double(tapsPerRun) / native]
    }
    return [
      Figure(
        name: "tap_path_lua", unit: "taps/s", samples: samples["lua"],
        baseline: "the same taps with a Swift delegate giving the same answers", baselineSamples: samples["swift"],
        ratioMeaning: "Lua taps/s / Swift taps/s (higher is better; >= 0.333 means at most 3x the Swift time)",
        goal: Goal(text: "ratio >= 0.333 (Lua time <= 3x Swift)") { _, ratio in ratio >= 1.0 / 3 })
    ]
  }
}

/// The `plugin_load_100` benchmark.
enum PluginLoad100Benchmark {
  static let count = 100

  static func source(_ i: Int) -> String {
    """
    local p = { name = "p\(i)", priority = \(i % 7), state = { taps = 0 } }
    function p.setup(map) p.map = map end
    function p.did_tap_marker(map, marker) p.state.taps = p.state.taps + 1; return marker.id == "p\(i)" end
    function p.marker_info_window(map, marker) if marker.id == "p\(i)" then return { text = "p\(i)" } end end
    return p
    """
  }

  static var benchmark: Benchmark {
    Benchmark(
      name: "plugin_load_100", summary: "load 100 small plugins; bytes per idle plugin", run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    var files: [String: String] = [:]
    for i in 0..<count { files[String(format: "p%03d.lua", i)] = source(i) }
    let folder = try PluginBenchFolder(files)
    let camera = CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 4)
    context.progress("plugin_load_100: \(count) plugins per run")
    let samples = try context.measure { _ in
      let map = try MapView(camera: camera)
      System.releaseFreedMemory()
      let rssBefore = System.residentBytes() ?? 0
      var host: PluginHost?
      let load = try seconds { host = try folder.host(for: map) }
      let rssAfter = System.residentBytes() ?? 0
      var luaBytes = 0
      for i in 0..<count {
        guard let state = host?.luaState(ofPlugin: "p\(i)") else {
          throw BenchmarkFailure(description: "p\(i) missing")
        }
        state.collectGarbage()
        luaBytes += state.memoryInUse
      }
      // The floor: bare states with every library, each running the same file.
      var bareBytes = 0
      var bare: [LuaState] = []
      let baseline = try seconds {
        for i in 0..<count {
          let state = try LuaState(libraries: .all)
          try state.stack.run(source(i).replacingOccurrences(of: "p.map = map", with: ""), results: 1)
          bare.append(state)
        }
      }
      for state in bare {
        state.collectGarbage()
        bareBytes += state.memoryInUse
      }
      blackHole(host)
      return [
        "load": load * 1e3, "baseline": baseline * 1e3, "lua": Double(luaBytes / count),
        "rss": Double(max(0, rssAfter - rssBefore) / count), "bare": Double(bareBytes / count),
      ]
    }
    let perPlugin = Goal(text: "< 256 KiB a plugin") { value, _ in value < 256 * 1024 }
    return [
      Figure(
        name: "plugin_load_100", unit: "ms", samples: samples["load"],
        baseline: "100 bare Lua states (all libraries) running the same files", baselineSamples: samples["baseline"],
        ratioMeaning: "host load time / bare states (sandbox, API and checks on top)",
        goal: Goal(text: "< 200 ms") { value, _ in value < 200 }),
      Figure(
        name: "plugin_load_100.lua_bytes_per_plugin", unit: "bytes", samples: samples["lua"],
        baseline: "a bare Lua state (all libraries) with the same file", baselineSamples: samples["bare"],
        ratioMeaning: "plugin state / bare state", goal: perPlugin),
      Figure(
        name: "plugin_load_100.rss_bytes_per_plugin", unit: "bytes", samples: samples["rss"],
        baseline: "a bare Lua state (all libraries) with the same file", baselineSamples: samples["bare"],
        ratioMeaning: "process growth per plugin / bare state's Lua heap", goal: perPlugin),
    ]
  }
}
