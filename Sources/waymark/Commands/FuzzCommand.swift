import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// `waymark fuzz SCRIPT`: drives the script's map with random but valid input and checks
/// after every input; a failure is shrunk and written as a runnable script.
struct FuzzCommand {
  static let spec = CommandSpec(
    name: "fuzz", usage: "SCRIPT",
    summary: """
      Runs SCRIPT, then drives its map with random but valid input (taps on markers, windows, the map, points
      of interest and overlays; long presses; drags of draggable markers; pans, pinches, rotations; camera
      updates; selection from code; time) and checks after every input: no plugin_error, no failed
      expectation, the map's own invariants, and the script's (waymark.invariant(name, function(map) ... end)).
      A failure is shrunk to a shortest sequence of inputs that fails the same way and written to --out as a
      script that reproduces it with 'waymark run'; its path and the seed are printed. The same seed makes the
      same runs. Exit 0 when every run passed, 1 when one failed, 3 when the script cannot be fuzzed.
      """,
    options: [
      OptionSpec(name: "plugins", value: "DIR", repeatable: true, help: "load every *.lua plugin in DIR"),
      OptionSpec(name: "runs", value: "N", help: "runs, each from a fresh run of the script (default 100)"),
      OptionSpec(name: "events", value: "K", help: "inputs per run (default 50)"),
      OptionSpec(name: "seed", value: "S", help: "the seed of the first run (default: from the clock, printed)"),
      OptionSpec(name: "out", value: "DIR", help: "where the reproducer is written (default fuzz-failures)"),
      OptionSpec(name: "policy", value: "NAME", help: "ios, android or web: overrides the script's"),
    ] + BudgetOptions.specs,
    positionals: 1...1,
    examples: [
      "waymark fuzz tests/tour_test.lua --plugins plugins/guided_tour",
      "waymark fuzz scripts/city_guide.lua --runs 500 --events 100 --seed 42 --out /tmp/fuzz",
    ])

  let script: String
  let options: FuzzOptions
  let out: String
  let seedWasGiven: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    script = arguments.positionals[0]
    var options = FuzzOptions()
    options.script.pluginFolders = arguments.all("plugins")
    if let policy = arguments.value("policy") {
      guard BehaviorPolicy.presets[policy] != nil else {
        throw UsageError(message: "--policy \(policy): expected ios, android or web", command: "fuzz")
      }
      options.script.policy = policy
    }
    try BudgetOptions.apply(
      arguments, to: &options.script.plugins, command: "fuzz", instructions: BudgetOptions.testInstructions)
    options.runs = try Self.count(arguments, "runs", default: 100)
    options.events = try Self.count(arguments, "events", default: 50)
    if let text = arguments.value("seed") {
      guard let seed = UInt64(text) else {
        throw UsageError(message: "--seed \(text): expected a whole number from 0 to 2^64-1", command: "fuzz")
      }
      options.seed = seed
      seedWasGiven = true
    } else {
      options.seed = UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000_000
      seedWasGiven = false
    }
    self.options = options
    out = arguments.value("out") ?? "fuzz-failures"
  }

  private static func count(_ arguments: ParsedArguments, _ name: String, default value: Int) throws(UsageError) -> Int
  {
    guard let text = arguments.value(name) else { return value }
    guard let count = Int(text), count >= 1 else {
      throw UsageError(message: "--\(name) \(text): expected a whole number, at least 1", command: "fuzz")
    }
    return count
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
      throw CommandFailure(message: "cannot write \(file): \(RunCommand.reason(error))", code: ExitCode.scriptError)
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
