import Foundation
import WaymarkScripting

/// `waymark check [PATH]...`: loads plugins and scripts without running the scenario and
/// reports every problem with file:line.
struct CheckCommand {
  static let spec = CommandSpec(
    name: "check", usage: "[PATH]...",
    summary: """
      Loads plugins and scripts without running them and reports every problem with file:line: syntax
      errors, unknown handler names (with a suggestion), fields of the wrong type, handlers that are not
      functions, and uses of map:name or map.name that the map does not have. Folders are searched for *.lua files; a file that calls waymark.map is a script, any other
      a plugin. With no PATH: plugins and scripts in the current folder. Exit 1 when anything is found.
      """,
    options: [],
    positionals: 0...Int.max,
    examples: ["waymark check", "waymark check plugins/marker_events scripts/marker_events.lua"])

  let paths: [String]

  init(_ arguments: ParsedArguments) {
    paths = arguments.positionals.isEmpty ? ["plugins", "scripts"] : arguments.positionals
  }

  func execute() -> Int32 {
    let report = ScriptChecker.check(paths)
    for diagnostic in report.diagnostics { Output.print(diagnostic.description) }
    let errors = report.diagnostics.count
    Output.error(
      errors == 0
        ? "checked \(report.files) file(s): no problems"
        : "checked \(report.files) file(s): \(errors) problem(s)")
    return errors == 0 ? ExitCode.success : ExitCode.expectationFailed
  }
}
