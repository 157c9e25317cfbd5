import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// The options of every command that runs one script (`run`, `serve`, `repl`): plugin
/// folders, the policy and the settle limit, read into ``ScriptOptions``.
enum ScriptOptionParsing {
  /// `--plugins DIR` (repeatable).
  static let plugins = Option<ScriptOptions>.values(
    "plugins", "DIR", \.pluginFolders, help: "load every *.lua plugin in DIR (or the one plugin DIR.lua)")

  /// `--policy NAME`.
  static let policy = Option<ScriptOptions>.value(
    "policy", "NAME", \.policy, help: "ios, android or web: overrides the policy the script's waymark.map{} asks for",
    parse: { (text) throws(Refusal) -> String? in try OptionValue.policy(text) })

  /// `--time-limit` and `--script-budget`.
  static let limits: [Option<ScriptOptions>] = [
    .value(
      "time-limit", "SECONDS", \.timeLimit, help: "virtual time after which settle() gives up (default 600)",
      parse: { (text) throws(Refusal) in
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= VirtualClock.longestStep else {
          throw Refusal("expected a positive number of seconds, at most 1e9")
        }
        return seconds
      }),
    .value(
      "script-budget", "SECONDS", \.scriptBudget, help: "wall-clock budget of the script's own Lua code (default 20)",
      parse: { (text) throws(Refusal) -> Duration? in
        .seconds(try OptionValue.whole(atLeast: 1, "a positive number of seconds")(text))
      }),
  ]

  /// The options of a command that runs one script, its ``ScriptOptions`` at `options` and
  /// its handler budgets at `budgets`: `--plugins`, `--policy`, then `middle`, then the limits.
  static func options<C>(
    _ options: WritableKeyPath<C, ScriptOptions> & Sendable, _ budgets: WritableKeyPath<C, HandlerBudgets> & Sendable,
    around middle: [Option<C>] = []
  ) -> [Option<C>] {
    [plugins.lifted(options), policy.lifted(options)] + middle + limits.map { $0.lifted(options) }
      + HandlerBudgets.options.map { $0.lifted(budgets) }
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
