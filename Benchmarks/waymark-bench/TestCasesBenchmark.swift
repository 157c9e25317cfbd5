// test_cases_1000: 200 test files of 5 cases of plain Lua logic (describe/it), run by
// `waymark test -j 2` against busted (Debian's lua-busted) running the same cases, and by
// `waymark test -j 1` against its own -j 2.

import Foundation

/// The `test_cases_1000` benchmark.
enum TestCasesBenchmark {
  static let files = 200
  static let casesPerFile = 5

  /// File `index`'s cases, each checking what `check` names (`expect_eq` for waymark,
  /// `assert.are.equal` for busted).
  static func source(_ index: Int, check: String) -> String {
    let cases = (1...casesPerFile).map { number in
      """
        it("sums case \(number)", function()
          local t = {}
          for k = 1, 100 do t[k] = k * \(number) end
          local sum = 0
          for k = 1, #t do sum = sum + t[k] end
          \(check)(sum, 5050 * \(number))
        end)
      """
    }
    return "describe(\"file \(index)\", function()\n\(cases.joined(separator: "\n"))\nend)\n"
  }

  static var benchmark: Benchmark {
    Benchmark(
      name: "test_cases_1000",
      summary: "1,000 describe/it cases in 200 files: waymark test -j 2 vs busted, -j 1 vs -j 2",
      run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let waymark = try TestSuiteBenchmark.executable()
    let busted = TestSuiteBenchmark.busted
    let folder = try PluginBenchFolder([:])
    for sub in ["waymark", "busted"] {
      try FileManager.default.createDirectory(atPath: folder.path + "/" + sub, withIntermediateDirectories: true)
    }
    for index in 0..<files {
      let name = String(format: "f%03d", index)
      try source(index, check: "expect_eq").write(
        toFile: folder.path + "/waymark/\(name)_test.lua", atomically: true, encoding: .utf8)
      try source(index, check: "assert.are.equal").write(
        toFile: folder.path + "/busted/\(name)_spec.lua", atomically: true, encoding: .utf8)
    }
    context.progress(
      "test_cases_1000: \(files * casesPerFile) cases, waymark test -j 2 and -j 1"
        + (busted == nil ? " (busted is not installed: no comparison with it)" : ", then busted"))
    let samples = try context.measure { _ in
      var times: [String: Double] = [:]
      for jobs in [2, 1] {
        times["j\(jobs)"] = try seconds {
          let status = try TestSuiteBenchmark.launch(waymark, ["test", "waymark", "-j", "\(jobs)"], in: folder.path)
          guard status == 0 else {
            throw BenchmarkFailure(description: "test_cases_1000: waymark test exited \(status)")
          }
        }
      }
      if let busted {
        times["busted"] = try seconds {
          let status = try TestSuiteBenchmark.launch(busted, ["busted"], in: folder.path)
          guard status == 0 else { throw BenchmarkFailure(description: "test_cases_1000: busted exited \(status)") }
        }
      }
      return times
    }
    var figures: [Figure] = []
    if busted != nil {
      figures.append(
        Figure(
          name: "test_cases_1000", unit: "s", samples: samples["j2"],
          baseline: "busted running the same 1,000 cases", baselineSamples: samples["busted"],
          ratioMeaning: "waymark test -j 2 / busted (lower is better)",
          goal: Goal(text: "ratio <= 1") { _, ratio in ratio <= 1 }))
    }
    figures.append(
      Figure(
        name: "test_cases_1000.j1", unit: "s", samples: samples["j1"],
        baseline: "the same cases with waymark test -j 2", baselineSamples: samples["j2"],
        ratioMeaning: "waymark test -j 1 / -j 2 (lower is better)",
        goal: Goal(text: "ratio <= 2") { _, ratio in ratio <= 2 }))
    return figures
  }
}
