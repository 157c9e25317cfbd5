import Foundation
import WaymarkCore
import WaymarkRender
import WaymarkScenarios
import WaymarkScripting

/// `waymark run SCRIPT`: runs a scripted demo with its plugins and prints the trace.
struct RunCommand: Command {
  static let configuration = CommandConfiguration(
    name: "run", abstract: "run a scripted demo and print its trace",
    summary:
      "Runs a scripted demo (a Lua script that builds a map and drives it) and prints its trace; SCRIPT - reads it from standard input.",
    examples: [
      "waymark run scripts/marker_events.lua",
      "waymark run scripts/marker_events.lua --plugins plugins/rich_tooltip --policy android",
      "waymark run scripts/marker_events.lua --trace json --trace-file /tmp/trace.jsonl",
      "waymark run scripts/custom_info_windows.lua --watch",
      "waymark run scripts/city_guide.lua --html /tmp/city_guide.html --snapshots /tmp/city_guide",
      "echo 'local map = waymark.map{} print(map.camera.zoom)' | waymark run -",
    ])

  static let options: [Option<RunCommand>] =
    ScriptOptionParsing.options(
      \.options, \.budgets,
      around: [
        .value(
          "trace", "FORMAT", \.format, help: "text (default), json (JSON Lines) or none",
          parse: OptionValue.choice(Format.self)),
        .text("trace-file", "PATH", \.traceFile, help: "write the trace to PATH instead of standard output"),
        .flag("frames", \.showsEveryFrame, help: "text trace: one line per camera frame instead of folding them"),
        .flag("watch", \.watches, help: "rerun when the script or a plugin changes; show what changed"),
        .value(
          "snapshots", "DIR", \.options.snapshotFolder,
          help: "write an SVG of the map at every idle camera and map:snapshot() into DIR (NNNN-<t>-<reason>.svg)",
          parse: { (text) throws(Refusal) -> String? in
            guard !text.isEmpty else { throw Refusal.whole("--snapshots needs a folder") }
            return text
          }),
        .value(
          "html", "FILE", \.replayFile, help: "write a self-contained HTML replay of the run to FILE",
          parse: { (text) throws(Refusal) -> String? in
            guard !text.isEmpty else { throw Refusal.whole("--html needs a file name") }
            return text
          }),
      ])
    + [
      .flag(
        "strict", \.isStrict, help: "exit 1 when a plugin_error or a warning happened that the script did not expect")
    ]

  static let positionals = Positionals<RunCommand>.one("SCRIPT", \.script)

  /// The trace's formats.
  enum Format: String, CaseIterable { case text, json, none }

  var script = ""
  var options = ScriptOptions()
  var budgets = HandlerBudgets()
  var format = Format.text
  var traceFile: String?
  var showsEveryFrame = false
  var watches = false
  var isStrict = false
  var replayFile: String?
  /// Whether the text trace is coloured: on a terminal, without NO_COLOR.
  var colors = false

  mutating func validate() throws(UsageError) {
    budgets.apply(to: &options.plugins, defaultInstructions: nil)
    if script == "-" {
      guard !watches else { throw UsageError(message: "--watch needs a script file, not standard input (-)") }
      script = "stdin"
      options.scriptSource = LuaSource(file: [UInt8](FileHandle.standardInput.readDataToEndOfFile()))
    }
    options.recordsReplay = replayFile != nil
    colors =
      traceFile == nil
      && TraceText.wantsColors(isTerminal: isatty(STDOUT_FILENO) != 0, environment: ProcessInfo.processInfo.environment)
  }

  func execute() throws(CommandFailure) -> Int32 {
    try ScriptOptionParsing.requireFolders(options)
    if let folder = options.snapshotFolder {
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw CommandFailure(
          message: "--snapshots \(folder): cannot create the folder: \(CommandFailure.reason(error))",
          code: ExitCode.scriptError)
      }
    }
    if watches { return try TraceWatcher(command: self).run() }
    let outcome = ScriptRunner.run(script, options: options)
    try write(outcome)
    try writeReplay(outcome)
    return report(outcome)
  }

  /// The trace in the chosen format.
  func render(_ outcome: ScriptOutcome) -> String {
    guard !outcome.records.isEmpty else { return "" }
    switch format {
    case .none: return ""
    case .json:
      return outcome.records.map(TraceJSON.line).joined(separator: "\n") + (outcome.records.isEmpty ? "" : "\n")
    case .text:
      return TraceText(showsEveryFrame: showsEveryFrame, colors: colors).lines(outcome.records).joined(separator: "\n")
        + "\n"
    }
  }

  /// Writes the trace to the file or standard output.
  func write(_ outcome: ScriptOutcome) throws(CommandFailure) {
    let text = render(outcome)
    guard let traceFile else {
      if !text.isEmpty { try Output.write(text) }
      return
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: traceFile))
    } catch {
      throw CommandFailure(
        message: "cannot write the trace to \(traceFile): \(CommandFailure.reason(error))", code: ExitCode.scriptError)
    }
  }

  /// Writes the HTML replay, if asked for.
  func writeReplay(_ outcome: ScriptOutcome) throws(CommandFailure) {
    guard let replayFile, let replay = outcome.replay else { return }
    let html = ReplayPage.html(replay, records: outcome.records, title: script)
    do {
      try TextFile.write(html, to: replayFile)
    } catch {
      throw CommandFailure(message: "--html: \(error)", code: ExitCode.scriptError)
    }
  }

  /// Prints the outcome's problems on standard error (every failed expectation, and every
  /// `plugin_error` and warning as one line, whatever `--trace` says) and returns the exit code.
  func report(_ outcome: ScriptOutcome) -> Int32 {
    for failure in outcome.failures { Output.error("expectation failed: \(TraceText.escaped(failure))") }
    for problem in outcome.pluginProblems { Output.error(problem.line) }
    if let error = outcome.error {
      Output.error("waymark run: \(TraceText.escaped(error))")
      return ExitCode.scriptError
    }
    if !outcome.failures.isEmpty {
      Output.error("\(outcome.failures.count) expectation(s) failed")
      return ExitCode.expectationFailed
    }
    let unexpected = outcome.pluginProblems.filter { !$0.isExpected }.count
    if isStrict, unexpected > 0 {
      Output.error("\(unexpected) plugin error(s) and warning(s) (--strict)")
      return ExitCode.expectationFailed
    }
    return ExitCode.success
  }
}
