import Foundation
import WaymarkScripting

/// `waymark types`: prints the LuaLS definition file of the whole Lua API, generated from the
/// registry that installs it.
struct TypesCommand {
  static let spec = CommandSpec(
    name: "types", usage: "",
    summary: """
      Prints the LuaLS definition file (---@meta) for the whole Lua API: maps, markers, overlays, cameras,
      the handler signatures of plugins and the script API. It is generated from the same registry that
      installs the API in Lua, so the two cannot drift. Point .luarc.json's workspace.library at it.
      """,
    options: [OptionSpec(name: "output", value: "PATH", help: "write to PATH instead of standard output")],
    positionals: 0...0,
    examples: ["waymark types > types/waymark.d.lua", "waymark types --output types/waymark.d.lua"])

  let output: String?

  init(_ arguments: ParsedArguments) { output = arguments.value("output") }

  func execute() throws(CommandFailure) -> Int32 {
    let text = LuaLSDefinitions.generate()
    guard let output else {
      try Output.write(text)
      return ExitCode.success
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: output))
    } catch {
      throw CommandFailure(message: "cannot write \(output): \(RunCommand.reason(error))", code: ExitCode.scriptError)
    }
    return ExitCode.success
  }
}
