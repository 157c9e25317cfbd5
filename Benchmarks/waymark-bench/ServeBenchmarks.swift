// serve_input_latency: a tap posted to `waymark serve` on loopback until its answer (its
// records) comes back, against the same tap made on a live session in the process.
// serve_sse_throughput: trace records per second streamed to an event-stream client while a
// camera animation plays on a 10,000-marker map, against making and encoding the same
// records in the process.

import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting
import WaymarkServe

/// The `serve_input_latency` benchmark.
enum ServeInputLatencyBenchmark {
  static let tapsPerRun = 200

  static var benchmark: Benchmark {
    Benchmark(
      name: "serve_input_latency",
      summary: "a tap posted to waymark serve on loopback until its records come back vs the same tap in-process",
      run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let folder = try ServedFiles(markers: 1)
    defer { folder.remove() }
    let server = try LiveMapServer(script: folder.script, options: folder.options, configuration: .freePort)
    defer { server.stop() }
    let session = try LiveSession(script: folder.script, options: folder.options)
    defer { session.close() }
    var client = try KeepAliveClient(port: server.port)
    let target = "/input?" + (server.url.split(separator: "?").last ?? "")
    let taps = [LiveInput.tap(Point(x: 195, y: 410)), .tap(Point(x: 20, y: 20))]
    let bodies = [#"{"kind":"tap","x":195,"y":410}"#, #"{"kind":"tap","x":20,"y":20}"#]
    guard try client.post(target, bodies[0]).contains("marker_info_window"),
      session.perform(taps[0]).records.contains(where: { $0.event == .callback(.markerInfoWindow) })
    else { throw BenchmarkFailure(description: "serve_input_latency: the tap did not reach the marker") }
    context.progress("serve_input_latency: \(tapsPerRun) taps per run, over HTTP and in-process")
    let samples = try context.measure { _ in
      var http: [Double] = [], local: [Double] = []
      for index in 0..<tapsPerRun {
        var answer = ""
        http.append(try seconds { answer = try client.post(target, bodies[index % 2]) } * 1e3)
        guard answer.hasPrefix("{") else { throw BenchmarkFailure(description: "serve_input_latency: \(answer)") }
        local.append(seconds { blackHole(session.perform(taps[index % 2])) } * 1e3)
      }
      return ["http": median(http), "local": median(local)]
    }
    return [
      Figure(
        name: "serve_input_latency", unit: "ms", samples: samples["http"],
        baseline: "the same tap on a live session in the process", baselineSamples: samples["local"],
        ratioMeaning: "a tap over loopback HTTP / the same tap in-process (the server's and the network's share)",
        goal: Goal(text: "median <= 5 ms") { value, _ in value <= 5 })
    ]
  }
}

/// The `serve_sse_throughput` benchmark.
enum ServeStreamThroughputBenchmark {
  static let markerCount = 10_000
  /// Virtual seconds of animation per run, advanced one second per input.
  static let secondsPerRun = 20

  static var benchmark: Benchmark {
    Benchmark(
      name: "serve_sse_throughput",
      summary: "trace records/s streamed to an SSE client during a camera animation on 10k markers vs in-process",
      run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let folder = try ServedFiles(markers: markerCount)
    defer { folder.remove() }
    let server = try LiveMapServer(script: folder.script, options: folder.options, configuration: .freePort)
    defer { server.stop() }
    let session = try LiveSession(script: folder.script, options: folder.options)
    defer { session.close() }
    let query = String(server.url.split(separator: "?").last ?? "")
    var client = try KeepAliveClient(port: server.port)
    _ = try client.post("/input?" + query, #"{"kind":"clock","paused":true}"#)
    let stream = try EventCounter(port: server.port, target: "/events?" + query)
    context.progress("serve_sse_throughput: \(secondsPerRun) s of camera animation per run on \(markerCount) markers")
    let samples = try context.measure { _ in
      let pan = #"{"kind":"pan","dx":300,"dy":200,"duration":\#(secondsPerRun)}"#
      let start = stream.count
      var made = 0
      let streamed = try seconds {
        made += ServedFiles.records(in: try client.post("/input?" + query, pan))
        for _ in 0..<secondsPerRun {
          made += ServedFiles.records(in: try client.post("/input?" + query, #"{"kind":"advance","seconds":1}"#))
        }
        stream.wait(until: start + made)
      }
      guard stream.count >= start + made, made > secondsPerRun * 50 else {
        throw BenchmarkFailure(
          description: "serve_sse_throughput: \(made) records made, \(stream.count - start) streamed")
      }
      var local = 0
      let inProcess = seconds {
        local += session.perform(.pan(dx: 300, dy: 200, duration: Double(secondsPerRun))).records.count
        for _ in 0..<secondsPerRun {
          let records = session.perform(.advance(seconds: 1)).records
          local += records.count
          blackHole(records.map(TraceJSON.line))
        }
      }
      return ["streamed": Double(made) / streamed, "local": Double(local) / inProcess]
    }
    return [
      Figure(
        name: "serve_sse_throughput", unit: "records/s", samples: samples["streamed"],
        baseline: "making and encoding the same records in the process", baselineSamples: samples["local"],
        ratioMeaning: "records/s streamed to a client / records/s made in-process (1: streaming costs nothing)",
        goal: Goal(text: ">= 10,000 records/s") { value, _ in value >= 10_000 })
    ]
  }
}

/// A temporary folder with a script of `markers` markers (one at the centre) and a window plugin.
struct ServedFiles {
  let folder: String
  var script: String { folder + "/served.lua" }
  var options: ScriptOptions {
    var options = ScriptOptions()
    options.plugins.timeBudget = .seconds(2)
    return options
  }

  init(markers: Int) throws {
    folder = NSTemporaryDirectory() + "/waymark-bench-serve-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
    try """
    local p = { name = "window" }
    function p.marker_info_window(map, marker) return { { text = marker.id, style = "title" }, "a live window" } end
    return p
    """.write(toFile: folder + "/plugins/window.lua", atomically: true, encoding: .utf8)
    try """
    local map = waymark.map{ camera = { target = { lat = -25.5, lng = 133.5 }, zoom = 5 }, plugins = { "plugins" } }
    map:add_marker{ id = "home", position = { lat = -25.5, lng = 133.5 } }
    local seed = 12345
    local function random() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
    for i = 2, \(markers) do
      map:add_marker{ position = { lat = -39 + 27 * random(), lng = 114 + 39 * random() } }
    end
    """.write(toFile: script, atomically: true, encoding: .utf8)
  }

  func remove() { try? FileManager.default.removeItem(atPath: folder) }

  /// How many records an /input answer holds.
  static func records(in answer: String) -> Int { answer.components(separatedBy: #""event":""#).count - 1 }
}

extension LiveMapServer.Configuration {
  /// Loopback, a free port.
  static var freePort: LiveMapServer.Configuration {
    var configuration = LiveMapServer.Configuration()
    configuration.port = 0
    return configuration
  }
}
