// waymark-bench: runs the named benchmarks (all by default) and prints their medians next
// to baselines measured in the same run.
//
//   swift run -c release waymark-bench [NAME...] [--json] [--runs N]
//
// Exit status: 0 when every figure ran (goals met or not), 1 when a benchmark failed, 2 for
// a bad command line.

import Foundation

/// The parsed command line.
struct Options {
  /// The benchmarks to run, in registry order.
  var benchmarks: [Benchmark] = Benchmark.all
  /// Whether to print JSON lines.
  var json = false
  /// Timed runs per benchmark.
  var runs = 5
}

/// The usage text for `--help` and errors.
func usage() -> String {
  let names = Benchmark.all.map {
    "  \($0.name.padding(toLength: 24, withPad: " ", startingAt: 0))\($0.summary)"
  }
  return """
    usage: waymark-bench [NAME...] [--json] [--runs N] [--help]

    Runs the named benchmarks (all when none is named): one warm-up run, then N timed runs
    (default 5); prints each figure's median next to a baseline measured in the same run.

      --json     one JSON object per line: name, value, unit, baseline, baseline_value,
                 ratio (= value / baseline_value), ratio_meaning, goal, met, runs, min, max
      --runs N   timed runs per benchmark (N >= 1)
      --help     this text

    Build with -c release: debug numbers mean nothing.

    benchmarks:
    \(names.joined(separator: "\n"))

    """
}

/// Parses the arguments; prints an error and exits with status 2 on a bad command line.
func parseOptions(_ arguments: [String]) -> Options {
  var options = Options()
  var names: [String] = []
  var rest = arguments[...]
  func fail(_ message: String) -> Never {
    printError("waymark-bench: \(message)\n\n\(usage())")
    exit(2)
  }
  while let argument = rest.popFirst() {
    switch argument {
    case "--help", "-h":
      print(usage(), terminator: "")
      exit(0)
    case "--json":
      options.json = true
    case "--runs":
      guard let text = rest.popFirst(), let runs = Int(text), runs >= 1 else {
        fail("--runs needs a whole number of at least 1")
      }
      options.runs = runs
    case _ where argument.hasPrefix("-"):
      fail("unknown option \(argument)")
    default:
      names.append(argument)
    }
  }
  if !names.isEmpty {
    let known = Set(Benchmark.all.map(\.name))
    let unknown = names.filter { !known.contains($0) }
    guard unknown.isEmpty else {
      printError(
        "waymark-bench: unknown benchmark\(unknown.count > 1 ? "s" : "") \(unknown.joined(separator: ", "))\n"
          + "known benchmarks: \(Benchmark.all.map(\.name).joined(separator: ", "))\n")
      exit(2)
    }
    options.benchmarks = Benchmark.all.filter { names.contains($0.name) }
  }
  return options
}

#if DEBUG
  printError(
    """
    ************************************************************************
    *  waymark-bench was built in DEBUG mode: these numbers mean nothing.  *
    *  Run: swift run -c release waymark-bench                             *
    ************************************************************************

    """)
#endif

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
let report = Report(json: options.json)
report.header(System.machineFacts(runs: options.runs))
let context = BenchmarkContext(runs: options.runs) { printError("  \($0)\n") }
var failed = false
for benchmark in options.benchmarks {
  do {
    report.figures(try benchmark.run(context))
  } catch {
    printError("waymark-bench: \(benchmark.name) failed: \(error)\n")
    failed = true
  }
}
exit(failed ? 1 : 0)
