// hit_test_1m: taps among 1,000,000 markers spread over Australia at zoom 10, through the
// spatial index (`topmostMarker(at:)`, against a linear scan of the same markers with the
// same per-marker check) and through the whole tap path (`tap(at:)`, against
// `topmostMarker(at:)` alone: the floor of a tap is finding what it hit).

import WaymarkCore
import WaymarkTesting

/// The `hit_test_1m` benchmark.
enum HitTestBenchmark {
  /// Markers on the map.
  static let markerCount = 1_000_000
  /// Camera positions per run; each is set once, then tapped many times.
  static let cameraCount = 8
  /// Taps per camera position through the index.
  static let tapsPerCamera = 1024
  /// Taps per run through the linear scan (each on another camera position).
  static let scanTapsPerRun = 4
  /// The default pin: 27 x 43 points, ground anchor (0.5, 1).
  static let pin = MarkerOptions.defaultPinSize

  /// The registry entry.
  static var benchmark: Benchmark {
    Benchmark(
      name: "hit_test_1m",
      summary: "time per tap among 1M markers: topmostMarker vs a linear scan, the full tap vs topmostMarker",
      run: run)
  }

  /// Builds the map, then measures the three ways of tapping.
  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    context.progress("hit_test_1m: adding \(markerCount) markers")
    let coordinates = Continent.coordinates(count: markerCount, seed: 0x4849_5454_4553_5431)
    let map = try Continent.makeMap()
    try Continent.addMarkers(coordinates[...], to: map)

    var rng = SplitMix64(seed: 0x5441_5053)
    // Camera targets stay 2 degrees inside the box, so every view is full of markers.
    let cameras = (0..<cameraCount).map { _ in
      CameraPosition(
        target: Continent.randomCoordinate(&rng, inset: 2), zoom: Continent.zoom,
        bearing: rng.uniform(0, 360))
    }
    let taps = cameras.indices.map { _ in
      (0..<tapsPerCamera).map { _ in
        Point(
          x: rng.uniform(0, Continent.viewSize.width), y: rng.uniform(0, Continent.viewSize.height))
      }
    }

    context.progress("hit_test_1m: timing taps")
    let samples = try context.measure { run in
      var index = 0.0
      var full = 0.0
      var scan = 0.0
      var found = 0
      for (camera, points) in zip(cameras, taps) {
        try map.moveCamera(.setCamera(camera))
        try map.settle()
        index += seconds {
          for point in points where map.topmostMarker(at: point) != nil { found += 1 }
        }
      }
      for (camera, points) in zip(cameras, taps) {
        try map.moveCamera(.setCamera(camera))
        try map.settle()
        full += try seconds {
          for point in points { try map.tap(at: point) }
        }
      }
      // The scan: a different tap of the first cameras each run; its answer must agree.
      for (camera, points) in zip(cameras, taps).prefix(scanTapsPerRun) {
        try map.moveCamera(.setCamera(camera))
        try map.settle()
        let point = points[run % points.count]
        var hit: Int?
        scan += seconds { hit = scanTopmost(coordinates, projection: map.projection, at: point) }
        let expected = map.topmostMarker(at: point).map { $0.serial - 1 }
        guard hit == expected else {
          throw BenchmarkFailure(
            description:
              "hit_test_1m: at \(point) the scan found \(String(describing: hit)), the index \(String(describing: expected))"
          )
        }
      }
      blackHole(found)
      let indexTaps = Double(cameraCount * tapsPerCamera)
      return [
        "index": index / indexTaps * 1e6, "tap": full / indexTaps * 1e6,
        "scan": scan / Double(scanTapsPerRun) * 1e6,
      ]
    }

    return [
      Figure(
        name: "hit_test_1m", unit: "us", samples: samples["index"],
        baseline:
          "linear scan: project each of the 1M markers with Projection.point(for:) and test its 27x43 pin rectangle",
        baselineSamples: samples["scan"],
        ratioMeaning: "time per tap / scan time per tap (lower is better; <= 0.001 means at least 1000x faster)",
        goal: Goal(text: "<= 1 us a tap and ratio <= 0.001") { value, ratio in value <= 1 && ratio <= 0.001 }),
      Figure(
        name: "hit_test_1m.tap", unit: "us", samples: samples["tap"],
        baseline: "topmostMarker(at:) alone at the same points (the hit_test_1m figure)",
        baselineSamples: samples["index"],
        ratioMeaning: "whole tap / finding the marker (what the rest of the tap costs, plus one)",
        goal: Goal(text: "<= 2 us a tap") { value, _ in value <= 2 }),
    ]
  }

  /// The topmost marker at `point` by testing every marker: the index in `coordinates` of
  /// the last added marker whose pin covers the point (all z-indices are 0), or nil.
  ///
  /// The same test as the map's for an unrotated default pin: the rectangle from
  /// (x - 13.5, y - 43) to (x + 13.5, y) around the projected ground anchor, edges included.
  @inline(never)
  static func scanTopmost(_ coordinates: [Coordinate], projection: Projection, at point: Point)
    -> Int?
  {
    let halfWidth = pin.width / 2
    let height = pin.height
    var hit: Int?
    for index in coordinates.indices {
      guard let anchor = projection.point(for: coordinates[index]) else { continue }
      if point.x >= anchor.x - halfWidth && point.x <= anchor.x + halfWidth
        && point.y >= anchor.y - height
        && point.y <= anchor.y
      {
        hit = index
      }
    }
    return hit
  }
}
