import Foundation
import WaymarkScenarios
import WaymarkScripting

/// `waymark types`: prints the LuaLS definition file of the whole Lua API, generated from the
/// registry that installs it, or (`--luacheck`) the `.luacheckrc` of the sandbox.
struct TypesCommand: Command {
  static let configuration = CommandConfiguration(
    name: "types", abstract: "print the LuaLS definition file (---@meta) of the whole Lua API",
    summary: """
      Prints the LuaLS definition file (---@meta) for the whole Lua API: maps, markers, overlays, cameras,
      the handler signatures of plugins and the script API. It is generated from the same registry that
      installs the API in Lua, so the two cannot drift. Point .luarc.json's workspace.library at it.
      With --scripts: the definitions of the globals only scripts have (waymark, expect, ...), kept apart so
      that an editor set up for plugins does not offer them. With --luacheck: the .luacheckrc whose
      standards are the globals plugins and scripts have.
      """,
    examples: [
      "waymark types > types/waymark.d.lua", "waymark types --output types/waymark.d.lua",
      "waymark types --scripts --output types/scripts/waymark-scripts.d.lua",
      "waymark types --luacheck --output .luacheckrc",
    ])

  static let options: [Option<TypesCommand>] = [
    .text("output", "PATH", \.output, help: "write to PATH (its folders made when missing)"),
    .flag("scripts", \.scripts, help: "print the definitions of the script globals instead"),
    .flag("luacheck", \.luacheck, help: "print the .luacheckrc of the sandbox instead"),
  ]

  static let positionals = Positionals<TypesCommand>.none

  var output: String?
  var luacheck = false
  var scripts = false

  func execute() throws(CommandFailure) -> Int32 {
    let text =
      luacheck
      ? LuacheckConfiguration.generate() : scripts ? LuaLSDefinitions.generateScripts() : LuaLSDefinitions.generate()
    guard let output else {
      try Output.write(text)
      return ExitCode.success
    }
    do {
      let url = URL(fileURLWithPath: output)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    } catch {
      throw CommandFailure(
        message: "cannot write \(output): \(CommandFailure.reason(error))", code: ExitCode.scriptError)
    }
    return ExitCode.success
  }
}
