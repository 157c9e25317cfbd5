import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// `waymark repl SCRIPT`: the live session of `serve` in a terminal. The script builds the
/// map; then each line of Lua runs in the script's environment, its results are shown with
/// `inspect` and the trace records it caused follow it.
struct ReplCommand: Command {
  static let configuration = CommandConfiguration(
    name: "repl", abstract: "the same live map in the terminal: a line of Lua at a time",
    summary: """
      Runs SCRIPT to build a map, then reads Lua a line at a time in the script's environment (map, the fields
      of the table the script returns, its globals, inspect): results are shown with inspect, the trace records
      the line caused are printed after it, an unfinished chunk continues on the next line. Changed plugin files
      are hot-reloaded between lines. The script's top-level locals are reachable. On a terminal, lines are
      edited through libedit: history in ~/.waymark_history (or the file WAYMARK_HISTORY names; empty: none),
      TAB completes names and the fields and methods of maps, markers and tables. Commands: :reload,
      :trace text|json, :time, :help, :quit.
      """,
    examples: ["waymark repl scripts/city_guide.lua", "waymark repl my_scenario.lua --plugins my_plugins"])

  static let options: [Option<ReplCommand>] = ScriptOptionParsing.options(\.options, \.budgets)

  static let positionals = Positionals<ReplCommand>.one("SCRIPT", \.script)

  var script = ""
  var options = ScriptOptions()
  var budgets = HandlerBudgets()

  mutating func validate() throws(UsageError) {
    budgets.apply(to: &options.plugins, defaultInstructions: nil)
  }

  func execute() throws(CommandFailure) -> Int32 {
    try ScriptOptionParsing.requireFolders(options)
    let session: LiveSession
    do {
      session = try LiveSession(script: script, options: options)
    } catch {
      throw CommandFailure(message: error.message, code: ExitCode.scriptError)
    }
    defer { session.close() }
    for failure in session.startup.failures { Output.error("expectation failed: \(TraceText.escaped(failure))") }
    for problem in session.startup.problems { Output.error(TraceText.escaped(problem)) }
    if let error = session.startup.error {
      Output.error("waymark repl: the script stopped with an error: \(TraceText.escaped(error))")
    }
    var repl = Repl(
      session: session, isInteractive: isatty(STDIN_FILENO) == 1,
      historyFile: LineEditor.historyFile(in: ProcessInfo.processInfo.environment))
    repl.run()
    return ExitCode.success
  }
}
