import Foundation
import Testing

@Suite struct CheckAndTypesTests {
  @Test func theRepositoryChecksClean() throws {
    let result = try CLI.run(["check"])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stderr.contains("no problems"))
  }

  /// A `*_test.lua` is a script whose cases' functions (describe, it, before_each, after_each,
  /// pending) `check` and luacheck know; a plugin still has none of them.
  @Test func aTestFileKnowsTheFunctionsOfItsCasesAndAPluginDoesNot() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = """
      describe("cart", function()
        before_each(function() end)
        after_each(function() end)
        it("opens", function() expect(true, "it does") end)
        pending("later")
      end)

      """
    try Data(cases.utf8).write(to: folder.appendingPathComponent("cart_test.lua"))
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("plugins/cart"), withIntermediateDirectories: true)
    try Data("---@type Plugin\nlocal plugin = { name = \"cart\" }\ndescribe(\"x\")\nreturn plugin\n".utf8).write(
      to: folder.appendingPathComponent("plugins/cart/cart.lua"))
    let check = try CLI.run(["check", "cart_test.lua", "plugins"], in: folder)
    #expect(check.status == 1)
    #expect(
      check.stdout
        == "plugins/cart/cart.lua:3: error: describe is not defined (a global that is read but never set, so it is nil)\n"
    )
    try FileManager.default.copyItem(
      at: CLI.root.appendingPathComponent(".luacheckrc"), to: folder.appendingPathComponent(".luacheckrc"))
    let luacheck = try CLI.shell("luacheck --no-color --formatter plain .", in: folder)
    #expect(luacheck.output == "plugins/cart/cart.lua:3:1: accessing undefined variable 'describe'\n")
  }

  @Test func checkReportsEveryProblemWithFileAndLine() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      """
      local plugin = {
        priority = "high",
        did_tap_marker = 3,
      }
      function plugin.did_tap_markr(map, marker) return true end
      return plugin
      """.utf8
    ).write(to: folder.appendingPathComponent("typos.lua"))
    try Data("local plugin = {\n  name = \"broken\"\nreturn plugin\n".utf8).write(
      to: folder.appendingPathComponent("syntax.lua"))
    try Data("local map = waymark.map{}\nmap:tap({ x = 1, y = 2 }\n".utf8).write(
      to: folder.appendingPathComponent("script.lua"))
    try Data(
      "local map = waymark.map{}\nmap:add_markr{ position = { 0, 0 } } -- map:not_code()\nprint(\"map:in_a_string()\", map.camra)\n"
        .utf8
    ).write(to: folder.appendingPathComponent("names.lua"))
    // No PATH inside a folder of plugins: the current folder, as the help says.
    let result = try CLI.run(["check"], in: folder)
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix("typos.lua:2:") && $0.contains("priority must be a finite number, got string \"high\"")
      }
    )
    #expect(
      lines.contains { $0.hasPrefix("typos.lua:3:") && $0.contains("did_tap_marker must be a function, got number") })
    #expect(
      lines.contains {
        $0.hasPrefix("typos.lua:5:") && $0.contains("did_tap_markr: no such handler; did you mean did_tap_marker?")
      })
    #expect(lines.contains { $0.hasPrefix("syntax.lua:3:") && $0.contains("'}' expected") })
    #expect(lines.contains { $0.hasPrefix("script.lua:") && $0.contains("')' expected") })
    #expect(
      lines.contains("names.lua:2: error: map:add_markr: Map has no method 'add_markr'; did you mean add_marker?"))
    #expect(lines.contains("names.lua:3: error: map.camra: Map has no field 'camra'; did you mean camera?"))
    #expect(!lines.contains { $0.contains("not_code") || $0.contains("in_a_string") })
    #expect(result.stderr.contains("checked 4 file(s)"))
  }

  @Test func checkOfAMissingPathNamesIt() throws {
    let result = try CLI.run(["check", "no/such/folder"])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "no/such/folder: error: no such file or folder (looked for \(CLI.root.path)/no/such/folder)"))
  }

  @Test func theShippedDefinitionsAreTheGeneratedOnes() throws {
    // types/waymark.d.lua is what `waymark types` prints, types/scripts/waymark-scripts.d.lua
    // what `waymark types --scripts` prints: regenerate them when the API changes.
    for (arguments, path) in [
      (["types"], "types/waymark.d.lua"), (["types", "--scripts"], "types/scripts/waymark-scripts.d.lua"),
    ] {
      let result = try CLI.run(arguments)
      #expect(result.status == 0)
      #expect(result.stdout.hasPrefix("---@meta\n"))
      let shipped = try String(contentsOf: CLI.root.appendingPathComponent(path), encoding: .utf8)
      #expect(result.stdout == shipped, "run: swift run waymark \(arguments.joined(separator: " ")) --output \(path)")
    }
  }

  @Test("Plugins see no script globals; handlers are typed functions; hover cites docs/semantics.md")
  func pluginAndScriptDefinitionsAreApart() throws {
    let plugin = try CLI.run(["types"]).stdout
    let scripts = try CLI.run(["types", "--scripts"]).stdout
    #expect(!plugin.contains("function expect(") && !plugin.contains("function waymark.map("))
    #expect(plugin.contains("function waymark.data.csv(path, options) end"), "plugins read data files too")
    #expect(scripts.contains("function expect_near(actual, expected, tolerance, message) end"))
    #expect(scripts.contains("waymark = {}") && !scripts.contains("---@class Map"))
    #expect(plugin.contains("---@class Plugin"))
    #expect(plugin.contains("---@field did_tap_marker (fun(map: Map, marker: Marker): boolean?)?"))
    #expect(plugin.contains("---@field marker_info_window (fun(map: Map, marker: Marker): Content?)?"))
    #expect(plugin.contains("(docs/semantics.md R6, R10)"))
    #expect(!plugin.contains("map-semantics") && !plugin.contains("shared/"))
    // Each folder's LuaLS settings: plugins get the plugin API and no io; scripts also the script globals.
    for (path, library) in [
      (".luarc.json", #"["types/waymark.d.lua"]"#), ("plugins/.luarc.json", #"["../types/waymark.d.lua"]"#),
      ("scripts/.luarc.json", #"["../types/waymark.d.lua", "../types/scripts"]"#),
    ] {
      let luarc = try String(contentsOf: CLI.root.appendingPathComponent(path), encoding: .utf8)
      #expect(luarc.contains(#""workspace.library": "# + library), "\(path)")
      #expect(luarc.contains(#""io": "disable""#), "\(path)")
      #expect(!luarc.contains("diagnostics.globals"), "\(path)")
    }
    // Every example plugin is typed for the editor.
    let folder = CLI.root.appendingPathComponent("plugins")
    for case let file as String in FileManager.default.enumerator(atPath: folder.path)! where file.hasSuffix(".lua") {
      let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      #expect(source.contains("---@type Plugin\nlocal plugin = {"), "\(file)")
    }
  }

  @Test func theShippedLuacheckConfigurationIsTheSandboxs() throws {
    // .luacheckrc is what `waymark types --luacheck` prints: the globals plugins really have.
    let result = try CLI.run(["types", "--luacheck"])
    #expect(result.status == 0)
    let shipped = try String(contentsOf: CLI.root.appendingPathComponent(".luacheckrc"), encoding: .utf8)
    #expect(result.stdout == shipped, "run: swift run waymark types --luacheck --output .luacheckrc")
    #expect(result.stdout.contains("    os = { fields = { clock = {}, date = {}, difftime = {}, time = {} } },"))
    #expect(
      result.stdout.contains(
        "    debug = { fields = { gethook = {}, getinfo = {}, getmetatable = {}, setmetatable = {}, traceback = {} } },"
      ))
    #expect(
      result.stdout.contains("    io = { fields = { flush = {}, stderr = {}, stdout = {}, type = {}, write = {} } },"),
      "io's file functions only refuse: luacheck flags them")
    #expect(result.stdout.contains("    expect_near = {},"))
  }

  @Test func typesOutputMakesMissingFolders() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["types", "--output", "types/nested/x.lua"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let written = try String(contentsOf: folder.appendingPathComponent("types/nested/x.lua"), encoding: .utf8)
    #expect(written.hasPrefix("---@meta\n"))
  }
}
