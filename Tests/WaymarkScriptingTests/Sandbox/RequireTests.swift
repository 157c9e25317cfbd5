import Foundation
import Testing

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `require` and what libraries read as they load (docs/plugins.md, "Helper modules"): the
/// requiring file's folder, then the module roots; `package`, `io`, `debug.getinfo`.
@Suite struct RequireTests {
  /// A project folder with `files` (folders made as needed).
  static func project(_ files: [String: String]) throws -> PluginFolder {
    let folder = try PluginFolder()
    for (name, source) in files {
      let path = folder.file(name)
      try FileManager.default.createDirectory(
        atPath: PluginFiles.folder(of: path), withIntermediateDirectories: true)
      try folder.write(name, source)
    }
    return folder
  }

  /// Runs `main.lua` of `folder` with module `roots` (relative ones inside the folder).
  static func run(_ folder: PluginFolder, roots: [String] = [], project: Bool = true) -> ScriptOutcome {
    var options = ScriptOptions.forTests
    options.plugins.moduleRoots = roots.map { URL(fileURLWithPath: $0.hasPrefix("/") ? $0 : folder.file($0)) }
    options.plugins.projectFolder = project ? URL(fileURLWithPath: folder.path) : nil
    return ScriptRunner.run(folder.file("main.lua"), options: options)
  }

  static func logs(_ outcome: ScriptOutcome) -> [String] {
    outcome.records.filter { $0.event == .log }.compactMap(\.message)
  }

  static func expectClean(_ outcome: ScriptOutcome, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(outcome.error == nil, "\(outcome.error ?? "")", sourceLocation: sourceLocation)
    #expect(outcome.failures.isEmpty, "\(outcome.failures)", sourceLocation: sourceLocation)
  }

  @Test func aModuleIsFoundBesideItsRequirerAsFileThenInitThenInEachRootInOrder() throws {
    let folder = try Self.project([
      "main.lua": """
      local util, file = require("util")
      expect_eq(util.name, "util")
      expect_eq(file, util.file, "require's second result is the loader data, the file")
      expect_eq(util.helper, "lib/util/helper.lua", "util/init.lua required its sibling from its own folder")
      expect_eq(require("shared").from, "first root", "the first root that has it wins")
      expect_eq(require("beside").from, "the script's folder", "the requiring file's folder comes first")
      expect(require("util") == util, "package.loaded keeps it")
      """,
      "beside.lua": "return { from = \"the script's folder\" }",
      "lib/util/init.lua": "local name, file = ...\nreturn { name = name, file = file, helper = require('helper') }",
      "lib/util/helper.lua": "return 'lib/util/helper.lua'",
      "lib/shared.lua": "return { from = 'first root' }",
      "lib/beside.lua": "return { from = 'a root' }",
      "vendor/shared.lua": "return { from = 'second root' }",
    ])
    Self.expectClean(Self.run(folder, roots: ["lib", "vendor"]))
  }

  @Test func theProjectsModulesReachTheScriptAndItsPlugins() throws {
    let folder = try Self.project([
      "waymark.lua": "return { modules = { 'lib', '/usr/share/lua/5.4' } }",
      "lib/shops.lua": "return { count = 3 }",
      "plugins/counter.lua": """
      local shops = require('shops')
      local json = require('dkjson')
      return { setup = function(map) print(json.encode({ shops = shops.count })) end }
      """,
      "main.lua": "expect_eq(require('shops').count, 3)\nlocal map = waymark.map{ plugins = { 'plugins' } }",
    ])
    let outcome = ScriptRunner.run(folder.file("main.lua"), options: .forTests)
    Self.expectClean(outcome)
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(Self.logs(outcome) == ["{\"shops\":3}"])
  }

  @Test func aModuleFileIsTriedAsNameDotLuaBeforeNameSlashInit() throws {
    let folder = try Self.project([
      "main.lua": "expect_eq(require('both'), 'both.lua')",
      "both.lua": "return 'both.lua'",
      "both/init.lua": "return 'both/init.lua'",
    ])
    Self.expectClean(Self.run(folder))
  }

  @Test func notFoundListsEveryFileLookedForAsLuaDoes() throws {
    let folder = try Self.project(["main.lua": "local m = require('nowhere.near')"])
    let outcome = Self.run(folder, roots: ["lib"])
    let error = try #require(outcome.error)
    #expect(error.contains("main.lua:1: module 'nowhere.near' not found:"), "\(error)")
    #expect(error.contains("\n\tno field package.preload['nowhere.near']"))
    #expect(error.contains("\n\tno file '\(folder.path)/nowhere/near.lua'"))
    #expect(error.contains("\n\tno file '\(folder.path)/nowhere/near/init.lua'"))
    #expect(error.contains("\n\tno file '\(folder.path)/lib/nowhere/near/init.lua'"))
  }

  // MARK: Hostile requires

  @Test(arguments: ["..", "/", "a b", "a:b", "a\\\\b"])
  func aNameWithoutPartsOrWithOtherCharactersIsRefused(name: String) throws {
    let folder = try Self.project(["main.lua": "local ok, e = pcall(require, '\(name)')\nprint(e)"])
    let outcome = Self.run(folder)
    Self.expectClean(outcome)
    #expect(
      Self.logs(outcome) == [
        "module name '\(name.replacingOccurrences(of: "\\\\", with: "\\"))' is not allowed: require takes a module name (letters, digits, _ and -, "
          + "parts separated by dots or slashes)"
      ])
  }

  /// Every dot of a name is a separator, as Lua's searchers make it, and runs of separators
  /// are one: `../x`, `/x` and `a..x` name files below the search folders, never above them.
  @Test(arguments: ["../secret", "/secret", "..secret", "lib/../secret"])
  func aNameNeverLeavesTheSearchFolders(name: String) throws {
    let folder = try Self.project([
      "main.lua": "local ok, e = pcall(require, '\(name)')\nprint(ok, e)",
      "lib/secret.lua": "return 'lib'",
    ])
    let parent = PluginFiles.folder(of: folder.path)
    try Data("return 'outside'".utf8).write(to: URL(fileURLWithPath: PluginFiles.join(parent, "secret.lua")))
    defer { try? FileManager.default.removeItem(atPath: PluginFiles.join(parent, "secret.lua")) }
    let outcome = Self.run(folder)
    Self.expectClean(outcome)
    let log = Self.logs(outcome).joined()
    let inside = name == "lib/../secret" ? "lib/secret.lua" : "secret.lua"
    #expect(!log.contains("outside"), "\(log)")
    #expect(log.contains("\(folder.path)/\(inside)") || log.hasPrefix("true\tlib"), "\(log)")
  }

  /// middleclass's spec requires `spec/metamethods_lua_5_2`: Lua turns a module name's dots
  /// into slashes and leaves its slashes, so both spellings find one file.
  @Test func slashesSeparateThePartsOfAModuleNameAsDots() throws {
    let folder = try Self.project([
      "main.lua": "print(require('lib/inside'), require('lib.inside') == require('lib/inside'))",
      "lib/inside.lua": "return 'inside'",
    ])
    let outcome = Self.run(folder)
    Self.expectClean(outcome)
    #expect(Self.logs(outcome) == ["inside\ttrue"])
  }

  @Test func aLinkInsideTheProjectMustNotLeadOutOfIt() throws {
    let outside = try PluginFolder(["secret.lua": "return 'outside'"])
    let folder = try Self.project(["main.lua": "local s = require('escape.secret')", "lib/inside.lua": "return 1"])
    try FileManager.default.createSymbolicLink(atPath: folder.file("escape"), withDestinationPath: outside.path)
    try FileManager.default.createSymbolicLink(atPath: folder.file("alias"), withDestinationPath: folder.file("lib"))
    let outcome = Self.run(folder)
    #expect(
      outcome.error?.hasPrefix(
        "\(folder.path)/main.lua:1: module 'escape.secret': \(folder.path)/escape/secret.lua is a symbolic link "
          + "that leads outside \(folder.path); it is not read") == true, "\(outcome.error ?? "")")
    try folder.write("main.lua", "expect_eq(require('alias.inside'), 1, 'a link that stays inside is followed')")
    Self.expectClean(Self.run(folder))
  }

  @Test func aCModuleIsRefusedNamingItsFile() throws {
    let folder = try Self.project(["main.lua": "require('native')", "native.so": "not really a library"])
    let outcome = Self.run(folder)
    #expect(
      outcome.error?.hasPrefix(
        "\(folder.path)/main.lua:1: module 'native' is a C library (\(folder.path)/native.so): the sandbox loads "
          + "Lua source only, never C code") == true, "\(outcome.error ?? "")")
  }

  /// Debian's lua-lpeg is a C library in the system's cpath (when installed).
  @Test func aSystemCModuleIsRefusedToo() throws {
    let library = ModuleLoader.systemCPath.map { $0.replacingOccurrences(of: "?", with: "lpeg") }
      .first { FileManager.default.fileExists(atPath: $0) }
    guard let library else { return }
    let folder = try Self.project(["main.lua": "local ok, e = pcall(require, 'lpeg')\nprint(e)"])
    let outcome = Self.run(folder, roots: ["/usr/share/lua/5.4"])
    #expect(
      Self.logs(outcome) == [
        "module 'lpeg' is a C library (\(library)): the sandbox loads Lua source only, never C code"
      ])
  }

  @Test func aLoopOfRequiresIsLuasLoopOrPreviousError() throws {
    let folder = try Self.project([
      "main.lua": "require('a')",
      "a.lua": "return { b = require('b') }",
      "b.lua": "return { a = require('a') }",
    ])
    let outcome = Self.run(folder)
    #expect(
      outcome.error?.hasPrefix(
        "\(folder.path)/b.lua:1: loop or previous error loading module 'a' (it requires itself: a -> b -> a)")
        == true, "\(outcome.error ?? "")")
  }

  @Test func aModuleThatFailsNamesItsFileAndLineAndCanBeRequiredAgain() throws {
    let folder = try Self.project([
      "main.lua": """
      local ok, e = pcall(require, 'broken')
      print(e)
      local ok2, e2 = pcall(require, 'broken')
      print(e2)
      local ok3, e3 = pcall(require, 'syntax')
      print(e3)
      """,
      "broken.lua": "local x = 1\nerror('no luck')",
      "syntax.lua": "return {",
    ])
    let outcome = Self.run(folder)
    Self.expectClean(outcome)
    let logs = Self.logs(outcome)
    #expect(logs.count == 3)
    #expect(logs[0] == "\(folder.path)/broken.lua:2: no luck")
    #expect(logs[1] == logs[0], "a failed module is not cached: it runs (and fails) again")
    #expect(
      logs[2].hasPrefix(
        "error loading module 'syntax' from file '\(folder.path)/syntax.lua':\n\t\(folder.path)/syntax.lua:1:"),
      "\(logs[2])")
  }

  @Test func theWatchdogStopsAModuleThatLoopsAtLoad() throws {
    let folder = try Self.project([
      "plugins/looping.lua": "local m = require('spin')\nreturn {}",
      "plugins/spin.lua": "while true do end",
    ])
    let f = try PluginFixture([:], plus: [folder.file("plugins/looping.lua")])
    let diagnostic = try #require(f.host.diagnostics.first)
    #expect(diagnostic.file == folder.file("plugins/looping.lua"))
    #expect(diagnostic.message.contains("time budget"), "\(diagnostic.message)")
    #expect(f.host.plugins.isEmpty)
  }
}
