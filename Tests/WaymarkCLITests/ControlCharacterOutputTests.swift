import Foundation
import Testing

/// `waymark check`, `fuzz` and `run --watch` print file names and messages with their control
/// characters escaped as the text trace escapes them (docs/trace-format.md): a name or a
/// message cannot redraw the terminal, set its title, or start a line that looks like output.
@Suite struct ControlCharacterOutputTests {
  /// ESC, BEL, CR and a newline: a window title, a redrawn line, and a forged line.
  static let hostile = "b\u{1b}]0;pwned\u{7}\r\u{1b}[2Kok\nforged"
  /// The same text as a Lua string literal's contents.
  static let luaHostile = #"b\27]0;pwned\7\r\27[2Kok\nforged"#

  static func expectEscaped(_ output: String, _ context: String) {
    #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(context): a raw control character")
    #expect(!output.split(separator: "\n").contains { $0.hasPrefix("forged") }, "\(context): a forged line")
    #expect(output.contains("\\u001b]0;pwned\\u0007\\r\\u001b[2Kok\\nforged"), "\(context): \(output)")
  }

  @Test func checkEscapesFileNamesAndMessages() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("local plugin = {\n  name = \"broken\"\nreturn plugin\n".utf8).write(
      to: folder.appendingPathComponent(Self.hostile + ".lua"))
    try Data("return { priority = \"\(Self.luaHostile)\" }\n".utf8)
      .write(to: folder.appendingPathComponent("plain.lua"))
    let result = try CLI.run(["check"], in: folder)
    #expect(result.status == 1)
    Self.expectEscaped(result.stdout, "check")
    #expect(result.stdout.split(separator: "\n").count == 2, "one line per problem: \(result.stdout)")
  }

  @Test func fuzzEscapesTheScriptsNameAndFailureMessages() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let message = Self.luaHostile
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("plugins"), withIntermediateDirectories: true)
    try Data("return { did_tap_at_coordinate = function() error(\"\(message)\", 0) end }\n".utf8).write(
      to: folder.appendingPathComponent("plugins/trap.lua"))
    let script = Self.hostile + ".lua"
    try Data("local map = waymark.map{}\n".utf8).write(to: folder.appendingPathComponent(script))
    let result = try CLI.run(
      ["fuzz", script, "--plugins", "plugins", "--seed", "1", "--runs", "2", "--out", "found"], in: folder)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    Self.expectEscaped(result.stdout, "fuzz")
  }

  @Test func watchEscapesPluginErrorsAndTheTrace() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let message = Self.luaHostile
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("plugins"), withIntermediateDirectories: true)
    try Data("return { did_tap_marker = function() error(\"\(message)\", 0) end }\n".utf8).write(
      to: folder.appendingPathComponent("plugins/trap.lua"))
    try Data(
      """
      local map = waymark.map{ plugins = { "plugins" } }
      map:tap(map:add_marker{ id = "\(message)", position = { lat = 0, lng = 0 } })
      """.utf8
    ).write(to: folder.appendingPathComponent("demo.lua"))
    let result = try CLI.run(["run", "demo.lua", "--watch"], in: folder, environment: ["WAYMARK_WATCH_MAX_RUNS": "1"])
    Self.expectEscaped(result.stdout, "watch's trace")
    Self.expectEscaped(result.stderr, "watch's plugin errors")
  }

  /// A command's own failure (a file that is not there, named by the user) is escaped too,
  /// by every command: the name is echoed, its control characters are not.
  @Test(arguments: [["test"], ["run"], ["check"]])
  func failuresNamingAMissingFileEscapeIt(_ command: [String]) throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(command + [Self.hostile + "_test.lua"], in: folder)
    #expect(result.status != 0)
    Self.expectEscaped(result.stdout + result.stderr, "\(command[0]) of a missing file")
  }
}
