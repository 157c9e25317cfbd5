import Foundation
import Testing

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// A project's `waymark.lua`: found by walking up, every key read, every mistake an error
/// naming the file, the key and the value (docs/projects.md).
@Suite struct ProjectTests {
  /// A project folder with `lib`, `data`, `plugins` and `scripts/deep` subfolders.
  func project(_ source: String) throws -> PluginFolder {
    let folder = try PluginFolder()
    for sub in ["lib", "data", "plugins", "scripts/deep", "tests"] {
      try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
    }
    try folder.write("waymark.lua", source)
    return folder
  }

  /// The message of the error reading `source` as a project file.
  func error(_ source: String) throws -> String {
    try error(project(source))
  }

  /// The message of the error reading the project file of `folder`.
  func error(_ folder: PluginFolder) throws -> String {
    do {
      _ = try Project.load(URL(fileURLWithPath: folder.file("waymark.lua")))
    } catch {
      #expect(error.message.hasPrefix(folder.file("waymark.lua")), "names the file: \(error.message)")
      return error.message
    }
    Issue.record("no error for \((try? String(contentsOfFile: folder.file("waymark.lua"), encoding: .utf8)) ?? "")")
    return ""
  }

  @Test("The project is the nearest folder above the script holding waymark.lua")
  func discovery() throws {
    let folder = try project("return { data = 'data' }")
    try folder.write("scripts/deep/demo.lua", "")
    for start in [
      folder.file("scripts/deep/demo.lua"), folder.file("scripts/deep"), folder.file("scripts"), folder.path,
    ] {
      let found = try #require(try Project.find(from: start), "from \(start)")
      #expect(found.folder.path == folder.path)
      #expect(found.dataRoots.map(\.path) == [folder.file("data")])
    }
    let inner = try PluginFolder()
    #expect(try Project.find(from: inner.path) == nil, "no waymark.lua above /tmp/wm-*")
  }

  @Test("Every key is read, paths relative to the project or absolute")
  func everyKey() throws {
    let folder = try project(
      """
      local root = "lib"
      return {
        modules = { root, "\(FileManager.default.temporaryDirectory.path)" },
        data = "data",
        plugins = { "plugins" },
        settings = { stores = { radius = 500, open = true, hours = { "9:00", "17:00" }, ratio = 0.5 } },
        clock = { start = "2025-06-02T09:00:00", zone = "Australia/Melbourne" },
        test = { paths = { "tests" }, golden = "tests/golden" },
      }
      """)
    let project = try #require(try Project.find(from: folder.path))
    #expect(
      project.moduleRoots.map(\.path) == [
        folder.file("lib"), FileManager.default.temporaryDirectory.standardizedFileURL.path,
      ])
    #expect(project.dataRoots.map(\.path) == [folder.file("data")])
    #expect(project.pluginFolders.map(\.path) == [folder.file("plugins")])
    #expect(
      project.settings["stores"]
        == .table([
          .string("radius"): .integer(500), .string("open"): .bool(true), .string("ratio"): .number(0.5),
          .string("hours"): .table([.integer(1): .string("9:00"), .integer(2): .string("17:00")]),
        ]))
    #expect(project.clock?.zone == "Australia/Melbourne")
    #expect(project.clock?.startEpoch == 1_748_818_800, "09:00 in Melbourne (UTC+10) is 23:00Z the day before")
    #expect(project.test.paths.map(\.path) == [folder.file("tests")])
    #expect(project.test.golden?.path == folder.file("tests/golden"), "a golden folder need not exist yet")
  }

  @Test("An empty project file is a project with every default")
  func empty() throws {
    let folder = try project("return {}")
    let project = try #require(try Project.find(from: folder.path))
    #expect(project == Project(folder: URL(fileURLWithPath: folder.path)))
  }

  @Test("An unknown key is an error naming it, its line and the nearest key")
  func unknownKey() throws {
    let message = try error("return {\n  data = 'data',\n  modles = { 'lib' },\n}")
    #expect(
      message.hasSuffix(
        "waymark.lua:3: unknown key 'modles'; did you mean modules? (a project file has modules, data, plugins, settings, clock, test)"
      ), "\(message)")
    #expect(
      try error("return { test = { path = 'tests' } }").contains("unknown key 'test.path'; did you mean test.paths?"))
    #expect(try error("return { clock = { zone = 'UTC', begin = '2025' } }").contains("unknown key 'clock.begin'"))
    #expect(
      try error("return { [1] = 'lib' }").contains(
        "a project file's keys are names (modules, data, plugins, settings, clock, test), not [1]"))
  }

  @Test("A value of the wrong type is an error naming the key and the value")
  func wrongTypes() throws {
    #expect(
      try error("return { modules = 3 }").hasSuffix(
        ":1: modules: expected a path or a list of paths ({ \"lib\" }), got number 3"))
    #expect(
      try error("return { data = { 'data', true } }").hasSuffix(
        ":1: data[2]: expected a path (a non-empty string), got boolean true"))
    #expect(
      try error("return { plugins = { x = 'plugins' } }").contains(
        "plugins: expected a list of paths, but it has the key x"))
    #expect(
      try error("return { settings = 'x' }").contains(
        "settings: expected a table of settings by plugin name, got string \"x\""))
    #expect(try error("return { settings = { [1] = {} } }").contains("settings: its keys are plugin names, not [1]"))
    #expect(
      try error("return { settings = { stores = { f = function() end } } }").contains(
        "settings.stores.f: expected plain data (a boolean, number, string or table), got function"))
    #expect(try error("local t = {} t.t = t return { settings = { s = t } }").contains("settings.s.t.t"))
    // Keys are strings or integers (docs/plugins.md, "Settings"): other keys are never dropped.
    #expect(
      try error("return { settings = { stores = { [tostring] = 1 } } }").contains(
        "settings.stores: a key must be a string or an integer, got a function"))
    #expect(
      try error("return { settings = { stores = { [{}] = 1 } } }").contains(
        "settings.stores: a key must be a string or an integer, got a table"))
    #expect(try error("return { clock = 'Melbourne' }").contains("clock: expected a table, got string \"Melbourne\""))
    #expect(try error("return { clock = { zone = 10 } }").contains("clock.zone: expected a string, got number 10"))
    #expect(try error("return { test = 'tests' }").contains("test: expected a table"))
  }

  @Test("A folder that does not exist is an error naming the key, the value and where it looked")
  func missingFolder() throws {
    let message = try error("return {\n  data = { 'data', 'nope' },\n}")
    #expect(message.contains("waymark.lua:2: data[2]: no such folder 'nope' (looked for /tmp/wm-"), "\(message)")
    #expect(try error("return { modules = '/no/such/root' }").contains("modules: no such folder '/no/such/root'"))
    #expect(
      try error("return { plugins = 'plugins/x.lua' }").contains("plugins: no such folder or .lua file 'plugins/x.lua'")
    )
  }

  /// docs/projects.md: data folders lie inside the project, so that `waymark.data` never reads
  /// outside it, by a link or by `..` (docs/plugins.md, "Data files and JSON").
  @Test("A data folder that is a link out of the project, or a path outside it, is an error naming the key")
  func dataFoldersLieInsideTheProject() throws {
    let outside = try PluginFolder(["s.txt": "secret"])
    let folder = try project("return {\n  data = { 'data', 'datalink' },\n}")
    try FileManager.default.createSymbolicLink(atPath: folder.file("datalink"), withDestinationPath: outside.path)
    let message = try error(folder)
    #expect(
      message.hasSuffix(
        "waymark.lua:2: data[2]: 'datalink' is outside the project (it leads to \(outside.path)); a data folder must "
          + "lie inside \(folder.path)"), "\(message)")
    try folder.write("waymark.lua", "return { data = '\(outside.path)' }")
    #expect(try error(folder).contains("data: '\(outside.path)' is outside the project; a data folder must lie inside"))
    try folder.write("waymark.lua", "return { data = '../\(URL(fileURLWithPath: outside.path).lastPathComponent)' }")
    #expect(try error(folder).contains("is outside the project"))
    try FileManager.default.removeItem(atPath: folder.file("datalink"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("datalink"), withDestinationPath: folder.file("data"))
    try folder.write("waymark.lua", "return { data = { 'datalink', '.' } }")
    let project = try Project.load(URL(fileURLWithPath: folder.file("waymark.lua")))
    #expect(project.dataRoots.count == 2, "a link that stays inside, and the project's own folder, are data folders")
  }

  @Test("An unknown zone or a start that is not a date is an error naming it ")
  func badClock() throws {
    let zone = try error("return { clock = { zone = 'Australia/Melborne' } }")
    #expect(zone.contains("clock.zone: unknown time zone 'Australia/Melborne'"), "\(zone)")
    #expect(zone.contains("did you mean Australia/Melbourne?"), "\(zone)")
    #expect(
      try error("return { clock = { start = '2025-02-30T09:00:00', zone = 'UTC' } }").contains(
        "clock.start: '2025-02-30T09:00:00' is not a real date and time"))
    #expect(
      try error("return { clock = { start = '2 June 2025' } }").contains(
        "clock.start: '2 June 2025' is not a local time of the form YYYY-MM-DDTHH:MM:SS"))
  }

  @Test("The file runs as plain Lua: no files, no os, no require; an error names its line")
  func sandbox() throws {
    #expect(
      try error("return {\n  data = io.open('x'),\n}").contains(
        "waymark.lua:2: attempt to index a nil value (global 'io')"))
    #expect(try error("os.exit(1)").contains("waymark.lua:1: attempt to index a nil value (global 'os')"))
    #expect(try error("return require('x')").contains("attempt to call a nil value (global 'require')"))
    #expect(try error("return {\n  data = ,\n}").contains("waymark.lua:2:"))
    #expect(try error("return 'lib'").contains("a project file returns a table"))
    #expect(try error("while true do end").contains("ran past 10000000 instructions"))
    // Like the instruction limit, the memory limit names the file (docs/projects.md).
    for source in ["return { s = string.rep('x', 64 << 20) }", "local t = {} for i = 1, 1e8 do t[i] = i end return {}"]
    {
      let message = try error(source)
      #expect(message.hasSuffix("waymark.lua: not enough memory (a project file runs in at most 32 MiB)"), "\(message)")
    }
    #expect(try error("error('no project here')").contains("waymark.lua:1: no project here"))
  }

  @Test("The command line wins over the project: plugin folders, roots, each plugin's settings, the clock")
  func flagsWin() throws {
    let folder = try project(
      "return { plugins = 'plugins', modules = 'lib', settings = { a = 1, b = 2 }, clock = { zone = 'UTC' } }")
    let project = try #require(try Project.find(from: folder.path))
    var plain = ScriptOptions()
    plain.adopt(project)
    #expect(plain.pluginFolders == [folder.file("plugins")])
    #expect(plain.moduleRoots.map(\.path) == [folder.file("lib")])
    #expect(plain.settings == ["a": .integer(1), "b": .integer(2)])
    #expect(plain.clock?.zone == "UTC")
    var flagged = ScriptOptions()
    flagged.pluginFolders = ["other"]
    flagged.settings = ["a": .string("flag")]
    flagged.clock = try LocalClock(start: "2025-06-02T09:00", zone: "Europe/Paris")
    flagged.adopt(project)
    #expect(flagged.pluginFolders == ["other"])
    #expect(flagged.settings == ["a": .string("flag"), "b": .integer(2)])
    #expect(flagged.clock?.zone == "Europe/Paris")
  }

  @Test("A script runs with its project's plugins; a broken project file stops it before it starts")
  func scriptsUseTheirProject() throws {
    let folder = try project("return { plugins = { 'plugins' } }")
    try folder.write(
      "plugins/hello.lua", "return { name = 'hello', setup = function(map) print('hello from the project') end }")
    try folder.write("scripts/deep/demo.lua", "local map = waymark.map{}")
    let outcome = ScriptRunner.run(folder.file("scripts/deep/demo.lua"), options: .forTests)
    #expect(outcome.error == nil)
    #expect(outcome.records.contains { $0.message == "hello from the project" })
    #expect(outcome.files.contains(folder.file("waymark.lua")), "--watch reruns when the project file changes")
    var without = ScriptOptions.forTests
    without.findsProject = false
    #expect(
      !ScriptRunner.run(folder.file("scripts/deep/demo.lua"), options: without).records.contains { $0.event == .log })
    try folder.write("waymark.lua", "return { plugin = 'plugins' }")
    let broken = ScriptRunner.run(folder.file("scripts/deep/demo.lua"), options: .forTests)
    #expect(
      broken.error?.contains("waymark.lua:1: unknown key 'plugin'; did you mean plugins?") == true,
      "\(broken.error ?? "")")
    #expect(broken.records.isEmpty)
  }
}
