// Frame costs on the virtual clock: camera_animation_100k (a 3-second camera animation with
// 100,000 markers on the map, against an empty map) and spatial_move (1,000 markers animating
// their positions on a map of 100,000, against a map of just those 1,000).

import WaymarkCore
import WaymarkTesting

/// A delegate that only counts did_change_camera_position callbacks (one per camera frame).
final class FrameCounter: MapViewDelegate {
  /// Camera changes heard so far.
  var cameraChanges = 0
  /// Counts one camera change.
  func mapView(_ mapView: MapView, didChange position: CameraPosition) { cameraChanges += 1 }
}

/// The `camera_animation_100k` benchmark.
enum CameraAnimationBenchmark {
  /// Markers on the measured map.
  static let markerCount = 100_000
  /// Animations per run, alternating between two cameras.
  static let animationsPerRun = 4
  /// Seconds each animation lasts (virtual time).
  static let duration = 3.0
  /// The two ends: Sydney at zoom 10, north up; Perth at zoom 8, turned and tilted.
  static let ends = [
    CameraPosition(target: Coordinate(latitude: -33.87, longitude: 151.21), zoom: 10),
    CameraPosition(
      target: Coordinate(latitude: -31.95, longitude: 115.86), zoom: 8, bearing: 90, tilt: 30),
  ]

  /// The registry entry.
  static var benchmark: Benchmark {
    Benchmark(
      name: "camera_animation_100k",
      summary: "time per frame of a 3 s camera animation with 100k markers vs an empty map",
      run: run)
  }

  /// Measures the same animations on a map with the markers and on an empty map.
  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    context.progress("camera_animation_100k: adding \(markerCount) markers")
    let coordinates = Continent.coordinates(count: markerCount, seed: 0x4341_4D45_5241)
    let full = try Continent.makeMap()
    let empty = try Continent.makeMap()
    try Continent.addMarkers(coordinates[...], to: full)
    let fullCounter = FrameCounter()
    let emptyCounter = FrameCounter()
    full.delegate = fullCounter
    empty.delegate = emptyCounter
    context.progress("camera_animation_100k: timing frames")
    let samples = try context.measure { _ in
      [
        "full": try secondsPerFrame(full, fullCounter),
        "empty": try secondsPerFrame(empty, emptyCounter),
      ]
    }
    return [
      Figure(
        name: "camera_animation_100k", unit: "us", samples: samples["full"].map { $0 * 1e6 },
        baseline: "the same animations on an empty map",
        baselineSamples: samples["empty"].map { $0 * 1e6 },
        ratioMeaning:
          "time per frame with 100k markers / without (1 = markers cost nothing per camera frame)",
        goal: Goal(text: "< 1000 us (1 ms) a frame") { value, _ in value < 1000 })
    ]
  }

  /// Starts at the first end, then animates back and forth; returns seconds per frame, a
  /// frame being one did_change_camera_position.
  static func secondsPerFrame(_ map: MapView, _ counter: FrameCounter) throws -> Double {
    try map.moveCamera(.setCamera(ends[0]))
    try map.settle()
    counter.cameraChanges = 0
    var total = 0.0
    for index in 0..<animationsPerRun {
      total += try seconds {
        try map.animate(.setCamera(ends[(index + 1) % 2]), duration: duration)
        try map.settle()
      }
    }
    let frames = counter.cameraChanges
    guard frames >= animationsPerRun * Int(duration * 60) else {
      throw BenchmarkFailure(description: "camera_animation_100k: only \(frames) frames")
    }
    return total / Double(frames)
  }
}

/// The `spatial_move` benchmark.
enum SpatialMoveBenchmark {
  /// Markers on the measured map.
  static let markerCount = 100_000
  /// Markers that move.
  static let movingCount = 1_000
  /// Seconds each position animation lasts (virtual time).
  static let duration = 1.0

  /// The registry entry.
  static var benchmark: Benchmark {
    Benchmark(
      name: "spatial_move",
      summary:
        "time per frame of 1k marker position animations on a 100k-marker map vs a 1k-marker map",
      run: run)
  }

  /// Measures the same moves on a map of 100k markers and on a map of only the moving 1k.
  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    context.progress("spatial_move: adding \(markerCount) markers")
    let coordinates = Continent.coordinates(count: markerCount, seed: 0x4D4F_5645)
    let full = try Continent.makeMap()
    let small = try Continent.makeMap()
    try Continent.addMarkers(coordinates[...], to: full)
    try Continent.addMarkers(coordinates.prefix(movingCount), to: small)
    var rng = SplitMix64(seed: 0x4445_5354)
    // Each moving marker goes up to a degree away (about 100 km: it changes quadtree leaves).
    let destinations = coordinates.prefix(movingCount).map { start in
      Coordinate(
        latitude: start.latitude + rng.uniform(-1, 1),
        longitude: start.longitude + rng.uniform(-1, 1))
    }
    let fullMoving = Array(full.markers.prefix(movingCount))
    let smallMoving = small.markers
    context.progress("spatial_move: timing frames")
    let samples = try context.measure { run in
      [
        "full": try secondsPerFrame(
          full, fullMoving, run % 2 == 0 ? destinations : Array(coordinates.prefix(movingCount))),
        "small": try secondsPerFrame(
          small, smallMoving, run % 2 == 0 ? destinations : Array(coordinates.prefix(movingCount))),
      ]
    }
    return [
      Figure(
        name: "spatial_move", unit: "us", samples: samples["full"].map { $0 * 1e6 },
        baseline: "the same 1k animations on a map holding only those 1k markers",
        baselineSamples: samples["small"].map { $0 * 1e6 },
        ratioMeaning:
          "time per frame on the 100k map / on the 1k map (1 = moves cost the same in a big index)",
        goal: Goal(text: "< 1000 us (1 ms) a frame for 1k moving markers") { value, _ in
          value < 1000
        })
    ]
  }

  /// Animates each marker to its destination (linear, `duration`), then runs the frames one
  /// clock task at a time; returns seconds per frame (the frames alone, not the setup).
  static func secondsPerFrame(_ map: MapView, _ markers: [Marker], _ destinations: [Coordinate])
    throws -> Double
  {
    try map.settle()
    for (marker, destination) in zip(markers, destinations) {
      try map.animate(marker, to: destination, duration: duration)
    }
    var frames = 0
    let time = seconds {
      while map.clock.runNextTask() { frames += 1 }
    }
    guard frames >= Int(duration * 60), markers.last?.position == destinations.last else {
      throw BenchmarkFailure(
        description: "spatial_move: \(frames) frames, last marker not at its destination")
    }
    return time / Double(frames)
  }
}
