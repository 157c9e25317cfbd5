// The registry of named benchmarks and the timing machinery they share: a warm-up run,
// then several timed runs on a monotonic clock, reported as medians (in the manner of
// swift-nio's NIOPerformanceTester).

/// A named benchmark: one measurement that yields one or more figures.
struct Benchmark {
  /// The name used on the command line, e.g. `hit_test_1m`.
  let name: String
  /// One line saying what is measured.
  let summary: String
  /// Runs the warm-up and the timed runs; returns the figures.
  let run: (BenchmarkContext) throws -> [Figure]

  /// Every benchmark, in the order they run.
  static var all: [Benchmark] {
    [
      HitTestBenchmark.benchmark,
      AddMarkersBenchmark.benchmark,
      AddMarkersLuaBenchmark.benchmark,
      AddMarkersGeoJSONBenchmark.benchmark,
      Cluster100kLuaBenchmark.benchmark,
      CameraAnimationBenchmark.benchmark,
      SpatialMoveBenchmark.benchmark,
      LuaDispatchBenchmark.benchmark,
      TapPathLuaBenchmark.benchmark,
      WatchdogCostBenchmark.benchmark,
      InstructionBudgetBenchmark.benchmark,
      TestSuiteBenchmark.benchmark,
      TestCasesBenchmark.benchmark,
      BustedSuiteBenchmark.benchmark,
      PluginLoad100Benchmark.benchmark,
      RenderSVGBenchmark.benchmark,
      HTMLReplayBenchmark.benchmark,
      ServeInputLatencyBenchmark.benchmark,
      ServeStreamThroughputBenchmark.benchmark,
      SlowClientsBenchmark.benchmark,
      Cluster100kBenchmark.benchmark,
      ClusterZoomFrameBenchmark.benchmark,
    ]
  }
}

/// What a benchmark is told: how many timed runs to make, and where to say what it is doing.
struct BenchmarkContext {
  /// Timed runs after the warm-up (the command line's `--runs`, 5 by default).
  let runs: Int
  /// Prints a progress line on stderr.
  let progress: (String) -> Void

  /// Runs `body` once as a warm-up (index 0, its figures dropped), then `runs` times (indices
  /// 1...runs), and collects the named figures each run returns, one sample per run.
  func measure(_ body: (_ run: Int) throws -> [String: Double]) rethrows -> Samples {
    _ = try body(0)
    var samples = Samples()
    for run in 1...runs {
      for (key, value) in try body(run) { samples.values[key, default: []].append(value) }
    }
    return samples
  }
}

/// The per-run samples of named figures.
struct Samples {
  /// Each figure's samples, one per timed run.
  var values: [String: [Double]] = [:]

  /// The samples of a figure (empty if the benchmark never produced it).
  subscript(key: String) -> [Double] { values[key] ?? [] }
}

/// A goal a figure is held to: its wording and the test of the value and ratio against it.
struct Goal {
  /// How the goal reads in reports, e.g. `<= 5 us a tap and ratio <= 0.001`.
  let text: String
  /// Whether the median value and ratio meet the goal.
  let isMet: (_ value: Double, _ ratio: Double) -> Bool
}

/// One reported figure: a median of samples, next to the median of its baseline measured in
/// the same process, with the ratio between them and a goal.
struct Figure {
  /// The figure's name, e.g. `hit_test_1m` or `add_markers_1m.bytes_per_marker`.
  let name: String
  /// The unit of the value and of the baseline's value (`us`, `s`, `bytes`).
  let unit: String
  /// The figure's per-run samples.
  let samples: [Double]
  /// What the baseline is.
  let baseline: String
  /// The baseline's per-run samples, in the same unit.
  let baselineSamples: [Double]
  /// What the ratio (value / baseline_value) means for this figure.
  let ratioMeaning: String
  /// The goal the figure is held to.
  let goal: Goal

  /// The median of the samples.
  var value: Double { median(samples) }
  /// The median of the baseline's samples.
  var baselineValue: Double { median(baselineSamples) }
  /// value / baseline_value.
  var ratio: Double { value / baselineValue }
  /// Whether the goal is met.
  var met: Bool { goal.isMet(value, ratio) }
}

/// The median of `values` (the mean of the middle two for an even count); NaN when empty.
func median(_ values: [Double]) -> Double {
  guard !values.isEmpty else { return .nan }
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Seconds taken by `body`, measured on the monotonic `ContinuousClock`.
@inline(__always)
func seconds(_ body: () throws -> Void) rethrows -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  try body()
  return (clock.now - start).seconds
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }
}

/// Keeps the optimizer from deleting the computation of `value`.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// A benchmark's inputs contradicted its own check (the measured code gave a wrong answer).
struct BenchmarkFailure: Error, CustomStringConvertible {
  /// What went wrong.
  let description: String
}
