// render_svg_100k: an SVG snapshot of a map holding 100,000 markers with about 2,000 in
// view, against a snapshot of a map holding only the markers drawn (culling through the
// spatial index: the cost follows what is visible, not what exists).
// html_replay: the HTML replay of the city-guide demo: its size, the time to write the page,
// and the time to run the demo recording the replay against running it without.

import Foundation
import WaymarkCore
import WaymarkRender
import WaymarkScenarios
import WaymarkScripting

/// The `render_svg_100k` benchmark.
enum RenderSVGBenchmark {
  static let markerCount = 100_000
  /// The zoom at which about 2,000 of the markers are in view.
  static let zoom = 7.45
  static let snapshotsPerRun = 20

  static var benchmark: Benchmark {
    Benchmark(
      name: "render_svg_100k",
      summary: "an SVG snapshot of 100k markers (~2,000 in view) vs a map holding only those", run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    context.progress("render_svg_100k: adding \(markerCount) markers")
    let big = try Continent.makeMap()
    try Continent.addMarkers(Continent.coordinates(count: markerCount, seed: 0x5356_4731)[...], to: big)
    let camera = CameraPosition(
      target: Coordinate(latitude: -25.5, longitude: 133.5), zoom: zoom, bearing: 20, tilt: 20)
    try big.moveCamera(.setCamera(camera))
    try big.settle()
    let view = Rect(x: 0, y: 0, width: Continent.viewSize.width, height: Continent.viewSize.height)
    let drawn = big.markers(in: view)
    let small = try Continent.makeMap()
    for marker in drawn { try small.addMarker(marker.options) }
    try small.moveCamera(.setCamera(camera))
    try small.settle()
    let renderer = SVGRenderer()
    let groups = { (svg: String) in svg.components(separatedBy: "<g class=\"marker\"").count - 1 }
    guard groups(renderer.svg(of: big)) == drawn.count, groups(renderer.svg(of: small)) == drawn.count else {
      throw BenchmarkFailure(description: "render_svg_100k: the two maps do not draw the same \(drawn.count) markers")
    }
    context.progress("render_svg_100k: \(drawn.count) markers drawn; timing \(snapshotsPerRun) snapshots per map")
    let samples = context.measure { _ in
      var bytes = 0
      let all = seconds { for _ in 0..<snapshotsPerRun { bytes += renderer.svg(of: big).utf8.count } }
      let visible = seconds { for _ in 0..<snapshotsPerRun { bytes += renderer.svg(of: small).utf8.count } }
      blackHole(bytes)
      return ["all": all / Double(snapshotsPerRun) * 1e3, "visible": visible / Double(snapshotsPerRun) * 1e3]
    }
    return [
      Figure(
        name: "render_svg_100k", unit: "ms", samples: samples["all"],
        baseline: "the same snapshot of a map holding only the \(drawn.count) markers drawn",
        baselineSamples: samples["visible"],
        ratioMeaning: "snapshot time / snapshot time of the small map (1 means the hidden 98% cost nothing)",
        goal: Goal(text: "<= 20 ms and ratio <= 1.5") { value, ratio in value <= 20 && ratio <= 1.5 })
    ]
  }
}

/// The `html_replay` benchmark.
enum HTMLReplayBenchmark {
  static var benchmark: Benchmark {
    Benchmark(
      name: "html_replay", summary: "the city guide's HTML replay: bytes, time to write the page, cost of recording",
      run: run)
  }

  /// The repository's root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let script = root.appendingPathComponent("scripts/city_guide.lua").path
    var plain = ScriptOptions()
    plain.plugins.timeBudget = .seconds(2)
    var recording = plain
    recording.recordsReplay = true
    context.progress("html_replay: running scripts/city_guide.lua with and without the replay")
    var trace = 0
    let samples = try context.measure { _ in
      var bytes = 0
      let alone = seconds { trace = ScriptRunner.run(script, options: plain).records.count }
      var outcome = ScriptOutcome()
      let recorded = seconds { outcome = ScriptRunner.run(script, options: recording) }
      var html = ""
      let page = seconds { html = ReplayPage.html(outcome.replay!, records: outcome.records, title: "city_guide") }
      guard outcome.error == nil, outcome.records.count == trace else {
        throw BenchmarkFailure(description: "html_replay: the recorded run differs from the plain one")
      }
      bytes = html.utf8.count
      let traceBytes = outcome.records.map { TraceJSON.line($0).utf8.count + 1 }.reduce(0, +)
      return [
        "bytes": Double(bytes), "trace_bytes": Double(traceBytes), "recorded": recorded * 1e3,
        "alone": alone * 1e3, "page": page * 1e3,
      ]
    }
    return [
      Figure(
        name: "html_replay.bytes", unit: "bytes", samples: samples["bytes"],
        baseline: "the run's JSON trace (\(trace) records)", baselineSamples: samples["trace_bytes"],
        ratioMeaning: "page bytes / trace bytes (the page holds the trace, the timeline, land and the player)",
        goal: Goal(text: "< 1 MiB") { value, _ in value < 1_048_576 }),
      Figure(
        name: "html_replay", unit: "ms", samples: samples["page"], baseline: "the same run without recording",
        baselineSamples: samples["alone"], ratioMeaning: "time to write the page / plain run",
        goal: Goal(text: "<= 20 ms") { value, _ in value <= 20 }),
      Figure(
        name: "html_replay.recording", unit: "ms", samples: samples["recorded"],
        baseline: "the same run without recording", baselineSamples: samples["alone"],
        ratioMeaning: "run recording the replay / plain run (the observers' cost)",
        goal: Goal(text: "ratio <= 1.25") { _, ratio in ratio <= 1.25 }),
    ]
  }
}
