// busted_suite: one generated 1,000-case suite in busted's language (describe/it,
// assert.are.same, a spy), the same files run by `waymark test -j 2` and by busted
// (Debian's lua-busted), which must not be faster.

import Foundation

/// The `busted_suite` benchmark.
enum BustedSuiteBenchmark {
  static let files = 10
  static let casesPerFile = 100

  /// File `index`: `casesPerFile` cases, each spying on a function and comparing tables.
  static func source(_ index: Int) -> String {
    let cases = (1...casesPerFile).map { number in
      """
        it("case \(number)", function()
          local add = spy.new(function(a, b) return a + b end)
          assert.are.same({ n = \(number), list = { 1, 2, \(number) } }, { n = \(number), list = { 1, 2, add(1, \(number - 1)) } })
          assert.spy(add).was.called_with(1, \(number - 1))
        end)
      """
    }
    return "describe(\"file \(index)\", function()\n\(cases.joined(separator: "\n"))\nend)\n"
  }

  static var benchmark: Benchmark {
    Benchmark(
      name: "busted_suite",
      summary: "1,000 busted-language cases (assert.are.same, a spy): waymark test -j 2 vs busted on the same files",
      run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let waymark = try TestSuiteBenchmark.executable()
    guard let busted = TestSuiteBenchmark.busted
    else {
      context.progress("busted_suite: busted is not installed, nothing to compare with")
      return []
    }
    let folder = try PluginBenchFolder([:])
    try FileManager.default.createDirectory(atPath: folder.path + "/spec", withIntermediateDirectories: true)
    for index in 0..<files {
      try source(index).write(
        toFile: folder.path + String(format: "/spec/s%02d_spec.lua", index), atomically: true, encoding: .utf8)
    }
    context.progress("busted_suite: \(files * casesPerFile) cases, waymark test -j 2, then busted")
    let samples = try context.measure { _ in
      var times: [String: Double] = [:]
      times["waymark"] = try seconds {
        let status = try TestSuiteBenchmark.launch(waymark, ["test", "spec", "-j", "2"], in: folder.path)
        guard status == 0 else { throw BenchmarkFailure(description: "busted_suite: waymark test exited \(status)") }
      }
      times["busted"] = try seconds {
        let status = try TestSuiteBenchmark.launch(busted, ["spec"], in: folder.path)
        guard status == 0 else { throw BenchmarkFailure(description: "busted_suite: busted exited \(status)") }
      }
      return times
    }
    return [
      Figure(
        name: "busted_suite", unit: "s", samples: samples["waymark"],
        baseline: "busted running the same 1,000 spec cases", baselineSamples: samples["busted"],
        ratioMeaning: "waymark test -j 2 / busted (lower is better)",
        goal: Goal(text: "ratio <= 1") { _, ratio in ratio <= 1 })
    ]
  }
}
