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
      present, else the current folder. A file in a project (a waymark.lua above it) requires modules
      from the project's module roots, as when it runs. Exit 1 when anything is found; exit 3 for a
      mistake in the project file.
      """,
    examples: ["waymark check", "waymark check plugins/marker_events scripts/marker_events.lua"])

  static let options: [Option<CheckCommand>] = []

  static let positionals = Positionals<CheckCommand>.many("[PATH]...", \.paths)

  var paths: [String] = []

  mutating func validate() throws(UsageError) {
    let defaults = ["plugins", "scripts", "tests"].filter { FileManager.default.fileExists(atPath: $0) }
    if paths.isEmpty { paths = defaults.isEmpty ? ["."] : defaults }
  }

  func execute() throws(CommandFailure) -> Int32 {
    var files = 0
    var diagnostics: [PluginDiagnostic] = []
    for (project, paths) in try Self.byProject(paths) {
      var options = ScriptOptions()
      if let project {
        options.plugins.moduleRoots = project.moduleRoots
        options.plugins.projectFolder = project.folder
      }
      let found = ScriptChecker.check(paths, options: options)
      files += found.files
      diagnostics += found.diagnostics
    }
    // File names and messages may hold control characters: escaped as the text trace escapes them.
    for diagnostic in diagnostics { Output.print(TraceText.escaped(diagnostic.description)) }
    let errors = diagnostics.count
    Output.error(
      errors == 0
        ? "checked \(files) file(s): no problems"
        : "checked \(files) file(s): \(errors) problem(s)")
    return errors == 0 ? ExitCode.success : ExitCode.expectationFailed
  }

  /// The paths grouped by their project (the nearest `waymark.lua` above each, whose module
  /// roots `require` searches as it does when the code runs), in the order first named; nil
  /// for paths outside any project. A mistake in a project file stops the command (exit 3).
  private static func byProject(_ paths: [String]) throws(CommandFailure) -> [(Project?, [String])] {
    var groups: [(Project?, [String])] = []
    for path in paths {
      let project: Project?
      do {
        project = try Project.find(from: path)
      } catch {
        throw CommandFailure(message: error.message, code: ExitCode.scriptError)
      }
      if let index = groups.firstIndex(where: { $0.0 == project }) {
        groups[index].1.append(path)
      } else {
        groups.append((project, [path]))
      }
    }
    return groups
  }
}
