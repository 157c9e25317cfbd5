// add_markers_1m: the time to add 1,000,000 titled markers to a fresh map and hit-test it
// once (the spatial index takes the markers added since the last query in one pass, at the
// first query: the time and the bytes include that), and the resident memory each marker
// costs, against appending the same data to a plain Swift array.

import WaymarkCore

/// The `add_markers_1m` benchmark.
enum AddMarkersBenchmark {
  /// Markers added per run.
  static let markerCount = 1_000_000

  /// What the baseline stores per marker: the position and the title, nothing else.
  struct PlainMarker {
    /// Where the marker stands.
    var position: Coordinate
    /// Its title.
    var title: String
  }

  /// The registry entry.
  static var benchmark: Benchmark {
    Benchmark(
      name: "add_markers_1m",
      summary:
        "time to add 1M titled markers to a fresh map and hit-test it once, and resident bytes per marker, vs a plain array",
      run: run)
  }

  /// Each run: a fresh map filled and released, then a plain array filled and released.
  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let coordinates = Continent.coordinates(count: markerCount, seed: 0x4144_444D_4152_4B53)
    context.progress("add_markers_1m: \(context.runs + 1) x (1M markers, 1M array elements)")
    let samples = try context.measure { _ in
      let map = try fillMap(coordinates)
      let plain = fillArray(coordinates)
      return [
        "time": map.seconds, "bytes": map.bytesPerMarker,
        "baseline_time": plain.seconds, "baseline_bytes": plain.bytesPerMarker,
      ]
    }
    return [
      Figure(
        name: "add_markers_1m", unit: "s", samples: samples["time"],
        baseline:
          "appending 1M structs {position, title} (same titles) to a Swift array, no reserveCapacity",
        baselineSamples: samples["baseline_time"],
        ratioMeaning:
          "map time / array time (lower is better; how many times the plain append the map costs)",
        goal: Goal(text: "<= 0.4 s") { value, _ in value <= 0.4 }),
      Figure(
        name: "add_markers_1m.bytes_per_marker", unit: "bytes", samples: samples["bytes"],
        baseline: "resident bytes per element of that array",
        baselineSamples: samples["baseline_bytes"],
        ratioMeaning: "map bytes / array bytes per element (lower is better)",
        goal: Goal(text: "<= 100 bytes a marker") { value, _ in value <= 100 }),
    ]
  }

  /// Adds the markers to a fresh map (not counting its creation) and taps it once, so that
  /// its spatial index holds them all, measures the resident growth, then releases the map
  /// and gives the memory back.
  ///
  /// Freed memory is returned to the kernel before both readings, so the growth is what the
  /// live map holds, not the buffers that array doubling freed on the way (which glibc would
  /// otherwise keep resident: that doubles the plain array's figure).
  static func fillMap(_ coordinates: [Coordinate]) throws -> (
    seconds: Double, bytesPerMarker: Double
  ) {
    System.releaseFreedMemory()
    let before = System.residentBytes() ?? 0
    var map: MapView? = try Continent.makeMap()
    let time = try seconds {
      for (index, coordinate) in coordinates.enumerated() {
        try map!.addMarker(MarkerOptions(position: coordinate, title: "Marker \(index)"))
      }
      blackHole(map!.topmostMarker(at: Point(x: 0, y: 0)))
    }
    System.releaseFreedMemory()
    let after = System.residentBytes() ?? 0
    guard map?.numberOfMarkers == coordinates.count else {
      throw BenchmarkFailure(
        description: "add_markers_1m: the map holds \(map?.numberOfMarkers ?? 0) markers")
    }
    map = nil
    System.releaseFreedMemory()
    return (time, Double(after - before) / Double(coordinates.count))
  }

  /// Appends the same data to a plain array, measures the resident growth, then releases it.
  static func fillArray(_ coordinates: [Coordinate]) -> (seconds: Double, bytesPerMarker: Double) {
    System.releaseFreedMemory()
    let before = System.residentBytes() ?? 0
    var array: [PlainMarker] = []
    let time = seconds {
      for (index, coordinate) in coordinates.enumerated() {
        array.append(PlainMarker(position: coordinate, title: "Marker \(index)"))
      }
      blackHole(array)
    }
    System.releaseFreedMemory()
    let after = System.residentBytes() ?? 0
    blackHole(array)
    array = []
    System.releaseFreedMemory()
    return (time, Double(after - before) / Double(coordinates.count))
  }
}
