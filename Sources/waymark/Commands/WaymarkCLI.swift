import Foundation
import WaymarkCore

/// The command line: `waymark run | test | fuzz | serve | repl | check | types | init | --help | --version`.
enum WaymarkCLI {
  /// The subcommands.
  static let commands: [CommandSpec] = [
    RunCommand.spec, TestCommand.spec, FuzzCommand.spec, ServeCommand.spec, ReplCommand.spec, CheckCommand.spec,
    TypesCommand.spec, InitCommand.spec,
  ]

  /// Runs the command line and returns the exit code (0 success, 1 an expectation
  /// failed, 2 bad usage, 3 a script could not be loaded or stopped with an error).
  static func main(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else {
      Output.error(overview)
      return ExitCode.usage
    }
    switch first {
    case "--help", "-h", "help":
      if arguments.count > 1, let spec = commands.first(where: { $0.name == arguments[1] }) {
        Output.print(spec.help)
      } else {
        Output.print(overview)
      }
      return ExitCode.success
    case "--version", "-V":
      Output.print("waymark \(WaymarkVersion.current)")
      return ExitCode.success
    default: break
    }
    guard let spec = commands.first(where: { $0.name == first }) else {
      let hint = Suggestion.hint(
        for: first, among: commands.map(\.name) + ["--help", "--version"], spelled: { "'\($0)'" })
      Output.error("waymark: unknown command '\(first)'\(hint)")
      Output.error("run 'waymark --help' for the commands")
      return ExitCode.usage
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
      Output.print(spec.help)
      return ExitCode.success
    }
    do {
      let parsed = try spec.parse(rest)
      switch spec.name {
      case RunCommand.spec.name: return try RunCommand(parsed).execute()
      case TestCommand.spec.name: return try TestCommand(parsed).execute()
      case FuzzCommand.spec.name: return try FuzzCommand(parsed).execute()
      case ServeCommand.spec.name: return try ServeCommand(parsed).execute()
      case ReplCommand.spec.name: return try ReplCommand(parsed).execute()
      case CheckCommand.spec.name: return CheckCommand(parsed).execute()
      case InitCommand.spec.name: return try InitCommand(parsed).execute()
      default: return try TypesCommand(parsed).execute()
      }
    } catch let error as UsageError {
      Output.error("waymark \(spec.name): \(Output.terminalSafe(error.message))")
      Output.error("run 'waymark \(spec.name) --help' for its options")
      return ExitCode.usage
    } catch let error as CommandFailure {
      Output.error("waymark \(spec.name): \(Output.terminalSafe(error.message))")
      return error.code
    } catch {
      Output.error("waymark \(spec.name): \(Output.terminalSafe("\(error)"))")
      return ExitCode.scriptError
    }
  }

  static let overview = """
    waymark \(WaymarkVersion.current): a headless map runtime with the event model of Google Maps SDK for iOS,
    whose delegate is written as Lua plugins. Everything runs on a virtual clock.

    usage: waymark <command> [options]

    commands:
      run SCRIPT      run a scripted demo and print its trace
      test [PATH]...  run every *_test.lua in parallel, each isolated; 'N passed, N failed' (JUnit, TAP, shards)
      fuzz SCRIPT     drive the script's map with random input; shrink a failure into a script that reproduces it
      serve SCRIPT    keep the script's map alive on a page you click; plugins hot-reload into it
      repl SCRIPT     the same live map in the terminal: a line of Lua at a time
      check [PATH]... load plugins and scripts without running them; report problems with file:line
      types           print the LuaLS definition file (---@meta) of the whole Lua API
      init [DIR]      write a small working project: a plugin, a scenario, tests, editor and luacheck settings, CI

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

/// The exit codes of the command line (README, "The command line").
enum ExitCode {
  static let success: Int32 = 0
  static let expectationFailed: Int32 = 1
  static let usage: Int32 = 2
  static let scriptError: Int32 = 3
}

/// A command that could not do its work: a one-line message and an exit code.
struct CommandFailure: Error {
  let message: String
  let code: Int32
}

/// Standard output and error, unbuffered enough for people and pipes.
enum Output {
  /// Writes a line to standard output; a closed or full output is ignored here (the trace
  /// itself goes through ``write(_:)``, which reports it).
  static func print(_ text: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
  }
  /// `text` (a command's one-line message) with every control character written as the text
  /// trace writes it (`\u001b`, `\n`), so that no argument or message a command echoes (a
  /// file name holding ESC, CR, BEL or a newline) reaches the terminal raw or starts a line.
  /// Backslashes stay as they are: text a command escaped already is not escaped twice.
  static func terminalSafe(_ text: String) -> String { TraceText.escapedControls(text) }

  /// Writes a line to standard error.
  static func error(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8))
  }
  /// Writes `text` to standard output, or fails with a one-line reason (a full disk, a closed pipe).
  static func write(_ text: String) throws(CommandFailure) {
    do {
      try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    } catch {
      throw CommandFailure(
        message: "cannot write to standard output: \(RunCommand.reason(error))", code: ExitCode.scriptError)
    }
  }
}
