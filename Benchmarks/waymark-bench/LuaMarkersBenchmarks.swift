// add_markers_lua: µs a marker that `map:add_marker` in a Lua loop costs above building the
// same option tables in the same loop, in the same run.
// add_markers_geojson: µs a marker that `map:add_markers` of a decoded 100,000-feature
// GeoJSON file costs above reading and decoding it (`waymark.data.geojson`), and the
// decoding against Python's `json.load` of the same file, timed in a subprocess in the
// same run.

import Foundation
import WaymarkCore
import WaymarkScripting

/// A plugin that runs one timed Lua loop when a marker is tapped: the marker's id names
/// the loop, the plugin keeps the loop's seconds (`os.clock` would count the process's CPU
/// time, so the host times the tap instead).
private let bulkPlugin = """
  local p = { name = "bulk" }
  local count = 100000
  function p.setup(map) p.map = map end
  local function tables()
    local last
    for i = 1, count do
      last = { position = { lat = -37.8 + i * 1e-6, lng = 144.9 + i * 1e-6 }, title = "Marker " .. i }
    end
    return last ~= nil
  end
  local function markers()
    local map = p.map
    for i = 1, count do
      map:add_marker{ position = { lat = -37.8 + i * 1e-6, lng = 144.9 + i * 1e-6 }, title = "Marker " .. i }
    end
    return true
  end
  local function decode()
    return #waymark.data.geojson("features.geojson").features == count
  end
  local function bulk()
    return #p.map:add_markers(waymark.data.geojson("features.geojson")) == count
  end
  local loops = { tables = tables, markers = markers, decode = decode, bulk = bulk }
  function p.did_tap_marker(map, marker) return loops[marker.id]() end
  return p
  """

/// Runs the bulk plugin's loops, each on a fresh map and host so that every loop starts
/// from an empty map and quota.
private struct BulkLoops {
  let folder: PluginBenchFolder

  /// Seconds the loop named `name` took, or a failure when it did not answer true (naming
  /// the plugin's error, from a second run with the trace on).
  func time(of name: String, traced: Bool = false) throws -> Double {
    let map = try MapView(camera: CameraPosition(target: Coordinate(latitude: -37.8, longitude: 144.9), zoom: 10))
    map.trace.isEnabled = traced
    let marker = try map.addMarker(MarkerOptions(position: map.camera.target, id: name))
    var configuration = PluginHost.Configuration()
    configuration.timeBudget = nil
    configuration.memoryLimit = 1 << 30
    // 100,000 features' properties pass a plugin's 8 MiB of shared user_data.
    configuration.hostLimits.sharedBytes = 64 << 20
    let host = try folder.host(for: map, configuration: configuration)
    var handled = false
    let time = seconds { handled = host.mapView(map, receive: .didTapMarker(marker)).isHandled }
    guard handled else {
      guard traced else { return try self.time(of: name, traced: true) }
      let last = map.trace.records.last.map { "\($0)" } ?? "no trace"
      throw BenchmarkFailure(description: "add_markers: the \(name) loop did not answer true: \(last)")
    }
    return time
  }
}

/// The `add_markers_lua` benchmark.
enum AddMarkersLuaBenchmark {
  /// Markers a loop adds (the plugin's `count`).
  static let markerCount = 100_000

  /// The registry entry.
  static var benchmark: Benchmark {
    Benchmark(
      name: "add_markers_lua",
      summary: "us a marker of map:add_marker in a Lua loop above building the same option tables",
      run: run)
  }

  /// Each run: the tables loop then the markers loop, on fresh maps.
  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let loops = BulkLoops(folder: try PluginBenchFolder(["bulk.lua": bulkPlugin]))
    context.progress("add_markers_lua: \(context.runs + 1) x (100,000 tables, 100,000 markers)")
    let samples = try context.measure { _ in
      let tables = try loops.time(of: "tables")
      let markers = try loops.time(of: "markers")
      let perMarker = 1e6 / Double(markerCount)
      return ["above": (markers - tables) * perMarker, "tables": tables * perMarker]
    }
    return [
      Figure(
        name: "add_markers_lua", unit: "us", samples: samples["above"],
        baseline: "building the same option tables in the same Lua loop, per marker",
        baselineSamples: samples["tables"],
        ratioMeaning: "µs a marker above the tables / µs a table (lower is better)",
        goal: Goal(text: "<= 3 us a marker above the tables") { value, _ in value <= 3 })
    ]
  }
}

/// The `add_markers_geojson` benchmark.
enum AddMarkersGeoJSONBenchmark {
  /// Point features in the file.
  static let featureCount = 100_000

  /// The registry entry.
  static var benchmark: Benchmark {
    Benchmark(
      name: "add_markers_geojson",
      summary:
        "us a marker of map:add_markers of a 100,000-feature GeoJSON file above decoding it, and decoding vs python3 json.load",
      run: run)
  }

  /// Each run: decoding alone, decoding then adding, and Python's `json.load`.
  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let file = featureCollection()
    let folder = try PluginBenchFolder(["bulk.lua": bulkPlugin, "features.geojson": file])
    let loops = BulkLoops(folder: folder)
    let path = folder.path + "/features.geojson"
    context.progress(
      "add_markers_geojson: \(context.runs + 1) x (decode, decode and add, python3) of \(file.utf8.count >> 10) KiB")
    let samples = try context.measure { _ in
      let decode = try loops.time(of: "decode")
      let bulk = try loops.time(of: "bulk")
      let python = try pythonLoadSeconds(path)
      return [
        "above": (bulk - decode) * 1e6 / Double(featureCount), "decode_us": decode * 1e6 / Double(featureCount),
        "decode": decode, "python": python,
      ]
    }
    return [
      Figure(
        name: "add_markers_geojson", unit: "us", samples: samples["above"],
        baseline: "reading and decoding the file (waymark.data.geojson), per feature",
        baselineSamples: samples["decode_us"],
        ratioMeaning: "µs a marker above decoding / µs a feature decoded (lower is better)",
        goal: Goal(text: "<= 1 us a marker above decoding") { value, _ in value <= 1 }),
      Figure(
        name: "add_markers_geojson.decode", unit: "s", samples: samples["decode"],
        baseline: "python3: json.load(open(F)) of the same file, timed inside python",
        baselineSamples: samples["python"],
        ratioMeaning: "waymark.data.geojson time / json.load time (lower is better)",
        goal: Goal(text: "ratio <= 1") { _, ratio in ratio <= 1 }),
    ]
  }

  /// A FeatureCollection of `featureCount` points around Melbourne, each with an id and a
  /// title, deterministic.
  static func featureCollection() -> String {
    var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
    for index in 0..<featureCount {
      let lat = -37.9 + Double(index % 1000) * 0.0002, lng = 144.8 + Double(index / 1000) * 0.002
      if index > 0 { text += ",\n" }
      text +=
        "{\"type\":\"Feature\",\"id\":\"s\(index)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lng),\(lat)]},"
        + "\"properties\":{\"title\":\"Store \(index)\",\"open\":\(index % 7 != 0)}}"
    }
    return text + "\n]}\n"
  }

  /// Seconds `json.load` takes on `path`, timed inside a `python3` subprocess (its start-up
  /// not counted).
  static func pythonLoadSeconds(_ path: String) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      "import json, sys, time\nt = time.perf_counter()\njson.load(open(sys.argv[1]))\nprint(time.perf_counter() - t)",
      path,
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let text = String(data: data, encoding: .utf8),
      let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw BenchmarkFailure(description: "add_markers_geojson: python3 json.load failed") }
    return value
  }
}
