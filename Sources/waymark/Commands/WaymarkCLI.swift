import Foundation
import WaymarkCore

/// The command line: `waymark run | test | fuzz | serve | repl | check | types | init | --help | --version`.
enum WaymarkCLI {
  /// The commands, in the order the overview lists them: the only list a new command joins.
  static var commands: [any Command.Type] {
    [
      RunCommand.self, TestCommand.self, FuzzCommand.self, ServeCommand.self, ReplCommand.self, CheckCommand.self,
      TypesCommand.self, InitCommand.self,
    ]
  }

  /// Runs the command line and returns the exit code (0 success, 1 an expectation
  /// failed, 2 bad usage, 3 a script could not be loaded or stopped with an error).
  static func main(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else {
      Output.error(overview)
      return ExitCode.usage
    }
    if ["--help", "-h", "help"].contains(first) {
      if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
        Output.print(help(of: command))
      } else {
        Output.print(overview)
      }
      return ExitCode.success
    }
    if ["--version", "-V"].contains(first) {
      Output.print("waymark \(WaymarkVersion.current) (\(BuildCommit.described))")
      return ExitCode.success
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      let hint = Suggestion.hint(
        for: first, among: commands.map { $0.name } + ["--help", "--version"], spelled: { "'\($0)'" })
      Output.error("waymark: unknown command '\(first)'\(hint)")
      Output.error("run 'waymark --help' for the commands")
      return ExitCode.usage
    }
    return run(command, Array(arguments.dropFirst()))
  }

  /// Parses and runs `command` (its type opened from the list).
  private static func run<C: Command>(_ command: C.Type, _ arguments: [String]) -> Int32 { C.main(arguments) }

  /// The --help text of `command`.
  private static func help<C: Command>(of command: C.Type) -> String { C.help }

  /// One line per command: its name and arguments, and what it does.
  static var commandList: String {
    commands.map { command in
      let left = command.name + (command.arguments.isEmpty ? "" : " " + command.arguments)
      return "  " + left + String(repeating: " ", count: max(1, 16 - left.count)) + command.configuration.abstract
    }.joined(separator: "\n")
  }

  static let overview = """
    waymark \(WaymarkVersion.current): a headless map runtime with the event model of Google Maps SDK for iOS,
    whose delegate is written as Lua plugins. Everything runs on a virtual clock.

    usage: waymark <command> [options]

    commands:
    \(commandList)

      --help          this help ('waymark <command> --help' for a command's options)
      --version       print the version

    examples:
      waymark init my_map
      waymark run scripts/marker_events.lua
      waymark run scripts/marker_events.lua --trace json --trace-file trace.jsonl
      waymark run scripts/drag.lua --watch
      waymark serve scripts/city_guide.lua
      waymark test tests --junit report.xml
      waymark check plugins scripts
      waymark types > types/waymark.d.lua

    exit codes: 0 success, 1 an expectation (or a test) failed, 2 bad usage, 3 a script could not be loaded or stopped with an error
    """
}
