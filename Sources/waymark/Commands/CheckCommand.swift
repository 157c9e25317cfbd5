import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// `waymark check [PATH]...`: loads plugins and scripts without running the scenario and
/// reports every problem with file:line.
struct CheckCommand: Command {
  static let configuration = CommandConfiguration(
    name: "check", abstract: "load plugins and scripts without running them; report problems with file:line",
    summary: """
      Loads plugins and scripts without running them and reports every mistake, one line each with
      file:line and a suggestion: syntax errors, unknown handler names, fields of the wrong type, handlers
      defined with ':' or with their arguments out of order, globals, what the sandbox leaves out (io,
      os.execute, ...), return values of the wrong type, every problem of a literal content table, and
      unknown members of maps, markers, cameras and option tables. Folders are searched for *.lua files:
      a file that calls waymark.map is a script; a file in lib/, or that a file beside it requires, is a
      helper module; any other is a plugin (a *_test.lua is a script, whose cases' functions describe, it,
      before_each, after_each and pending are known). With no PATH: ./plugins, ./scripts and ./tests when
      present, else the current folder. Exit 1 when anything is found.
      """,
    examples: ["waymark check", "waymark check plugins/marker_events scripts/marker_events.lua"])

  static let options: [Option<CheckCommand>] = []

  static let positionals = Positionals<CheckCommand>.many("[PATH]...", \.paths)

  var paths: [String] = []

  mutating func validate() throws(UsageError) {
    let defaults = ["plugins", "scripts", "tests"].filter { FileManager.default.fileExists(atPath: $0) }
    if paths.isEmpty { paths = defaults.isEmpty ? ["."] : defaults }
  }

  func execute() -> Int32 {
    let report = ScriptChecker.check(paths)
    // File names and messages may hold control characters: escaped as the text trace escapes them.
    for diagnostic in report.diagnostics { Output.print(TraceText.escaped(diagnostic.description)) }
    let errors = report.diagnostics.count
    Output.error(
      errors == 0
        ? "checked \(report.files) file(s): no problems"
        : "checked \(report.files) file(s): \(errors) problem(s)")
    return errors == 0 ? ExitCode.success : ExitCode.expectationFailed
  }
}
