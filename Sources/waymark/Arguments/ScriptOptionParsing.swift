import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// The options of every command that runs one script (`run`, `serve`, `repl`): plugin
/// folders, the policy, the settle limit and the budgets, read into ``ScriptOptions``.
enum ScriptOptionParsing {
  /// `--plugins DIR` (repeatable) and `--policy NAME`.
  static let pluginSpecs = [
    OptionSpec(
      name: "plugins", value: "DIR", repeatable: true,
      help: "load every *.lua plugin in DIR (or the one plugin DIR.lua)"),
    OptionSpec(
      name: "policy", value: "NAME",
      help: "ios, android or web: overrides the policy the script's waymark.map{} asks for"),
  ]

  /// `--time-limit`, `--script-budget` and the handler budgets.
  static let limitSpecs =
    [
      OptionSpec(
        name: "time-limit", value: "SECONDS", help: "virtual time after which settle() gives up (default 600)"),
      OptionSpec(
        name: "script-budget", value: "SECONDS", help: "wall-clock budget of the script's own Lua code (default 20)"),
    ] + BudgetOptions.specs

  /// The script options the arguments give; throws a usage error naming the option and value.
  static func options(_ arguments: ParsedArguments, command: String) throws(UsageError) -> ScriptOptions {
    var options = ScriptOptions()
    options.pluginFolders = arguments.all("plugins")
    if let policy = arguments.value("policy") {
      guard BehaviorPolicy.presets[policy] != nil else {
        throw UsageError(
          message: "--policy \(policy): expected ios, android or web"
            + Suggestion.hint(for: policy, among: BehaviorPolicy.presets.keys.sorted()),
          command: command)
      }
      options.policy = policy
    }
    if let limit = arguments.value("time-limit") {
      guard let seconds = Double(limit), seconds.isFinite, seconds > 0, seconds <= VirtualClock.longestStep else {
        throw UsageError(
          message: "--time-limit \(limit): expected a positive number of seconds, at most 1e9", command: command)
      }
      options.timeLimit = seconds
    }
    try BudgetOptions.apply(arguments, to: &options.plugins, command: command, instructions: nil)
    if let budget = arguments.value("script-budget") {
      guard let seconds = Int(budget), seconds > 0 else {
        throw UsageError(message: "--script-budget \(budget): expected a positive number of seconds", command: command)
      }
      options.scriptBudget = .seconds(seconds)
    }
    return options
  }

  /// Whether `path` is a `.lua` file that `--plugins` loads alone.
  static func isPluginFile(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return path.hasSuffix(".lua") && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && !isDirectory.boolValue
  }

  /// Fails (exit 3) naming where it looked when a `--plugins` folder or file does not exist.
  static func requireFolders(_ options: ScriptOptions) throws(CommandFailure) {
    for folder in options.pluginFolders {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
        isDirectory.boolValue || isPluginFile(folder)
      else {
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        throw CommandFailure(
          message: "--plugins \(folder): no such folder or .lua file (looked for \(absolute))",
          code: ExitCode.scriptError)
      }
    }
  }
}
