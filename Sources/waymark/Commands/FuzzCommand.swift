import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// `waymark fuzz SCRIPT`: drives the script's map with random but valid input and checks
/// after every input; a failure is shrunk and written as a runnable script.
struct FuzzCommand: Command {
  static let configuration = CommandConfiguration(
    name: "fuzz",
    abstract: "drive the script's map with random input; shrink a failure into a script that reproduces it",
    summary: """
      Runs SCRIPT, then drives its map with random but valid input (taps on markers, windows, the map, points
      of interest and overlays; long presses; drags of draggable markers; pans, pinches, rotations; camera
      updates; selection from code; time) and checks after every input: no plugin_error, no failed
      expectation, the map's own invariants, and the script's (waymark.invariant(name, function(map) ... end)).
      A failure is shrunk to a shortest sequence of inputs that fails the same way and written to --out as a
      script that reproduces it with 'waymark run'; its path and the seed are printed. The same seed makes the
      same runs. Exit 0 when every run passed, 1 when one failed, 3 when the script cannot be fuzzed.
      """,
    examples: [
      "waymark fuzz tests/tour_test.lua --plugins plugins/guided_tour",
      "waymark fuzz scripts/city_guide.lua --runs 500 --events 100 --seed 42 --out /tmp/fuzz",
    ])

  static let options: [Option<FuzzCommand>] =
    [
      .values("plugins", "DIR", \.options.script.pluginFolders, help: "load every *.lua plugin in DIR"),
      .value(
        "runs", "N", \.options.runs, help: "runs, each from a fresh run of the script (default 100)",
        parse: OptionValue.whole(atLeast: 1, "a whole number, at least 1")),
      .value(
        "events", "K", \.options.events, help: "inputs per run (default 50)",
        parse: OptionValue.whole(atLeast: 1, "a whole number, at least 1")),
      .value(
        "seed", "S", \.seed, help: "the seed of the first run (default: from the clock, printed)",
        parse: { (text) throws(Refusal) -> UInt64? in
          guard let seed = UInt64(text) else { throw Refusal("expected a whole number from 0 to 2^64-1") }
          return seed
        }),
      .value(
        "out", "DIR", \.out, help: "where the reproducer is written (default fuzz-failures)", parse: { $0 }),
      .value(
        "policy", "NAME", \.options.script.policy, help: "ios, android or web: overrides the script's",
        parse: { (text) throws(Refusal) -> String? in try OptionValue.policy(text) }),
    ] + HandlerBudgets.options.map { $0.lifted(\.budgets) }

  static let positionals = Positionals<FuzzCommand>.one("SCRIPT", \.script)

  var script = ""
  var options = FuzzOptions()
  var budgets = HandlerBudgets()
  var out = "fuzz-failures"
  /// `--seed`, when given.
  var seed: UInt64?

  mutating func validate() throws(UsageError) {
    budgets.apply(to: &options.script.plugins, defaultInstructions: HandlerBudgets.testInstructions)
    options.seed = seed ?? UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000_000
  }

  func execute() throws(CommandFailure) -> Int32 {
    for folder in options.script.pluginFolders {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw CommandFailure(
          message:
            "--plugins \(folder): no such folder (looked for \(URL(fileURLWithPath: folder).standardizedFileURL.path))",
          code: ExitCode.scriptError)
      }
    }
    guard let source = FileManager.default.contents(atPath: script).map({ LuaSource(file: [UInt8]($0)) }) else {
      throw CommandFailure(
        message: "\(script): cannot be read (looked for \(URL(fileURLWithPath: script).standardizedFileURL.path))",
        code: ExitCode.scriptError)
    }
    // The script's name and every message are escaped as the text trace escapes them.
    Output.print(
      TraceText.escaped("fuzzing \(script): \(options.runs) run(s) of \(options.events) input(s), seed \(options.seed)")
    )
    let report = ScriptFuzzer.fuzz(script, options: options) { Output.print(TraceText.escaped($0)) }
    if let problem = report.problem {
      throw CommandFailure(message: "\(script): \(problem)", code: ExitCode.scriptError)
    }
    guard let failure = report.failure, let seed = report.failingSeed else {
      Output.print(
        "\(report.runs) run(s), \(report.inputs) input(s) (\(report.refusedInputs) refused by the map): no failure")
      return ExitCode.success
    }
    let file = (out.hasSuffix("/") ? out : out + "/") + FuzzReproducer.fileName(script: script, seed: seed)
    let command =
      "waymark fuzz \(script)" + options.script.pluginFolders.map { " --plugins \($0)" }.joined()
      + " --events \(options.events) --seed \(seed) --runs 1"
    let reproducer = FuzzReproducer.source(
      script: script, source: source, pluginFolders: options.script.pluginFolders, folder: out, report: report,
      command: command)
    do {
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      try Data(reproducer.bytes).write(to: URL(fileURLWithPath: file))
    } catch {
      throw CommandFailure(message: "cannot write \(file): \(CommandFailure.reason(error))", code: ExitCode.scriptError)
    }
    Output.print(
      TraceText.escaped(
        failure.message.hasPrefix(failure.kind) ? failure.message : "\(failure.kind): \(failure.message)"))
    Output.print(
      "shrunk \(report.failingInputs.count) input(s) to \(report.shrunkInputs.count) in \(report.shrinkReplays) replay(s):"
    )
    for input in report.shrunkInputs { Output.print("  " + TraceText.escaped("\(input)")) }
    Output.print("seed: \(seed)")
    Output.print("reproducer: \(TraceText.escaped(file))")
    return ExitCode.expectationFailed
  }
}
