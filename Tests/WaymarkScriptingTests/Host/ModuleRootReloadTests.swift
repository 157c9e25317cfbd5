import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// Hot reload of plugins that require modules from a project's `modules` roots (its `lib/`,
/// a system tree whose files are links into another, as Debian's `/usr/share/lua/5.4`): a
/// plugin reloads when its file or a file it required changes, and never when nothing did.
/// The audit saw setup run again every quarter second in `waymark serve`, and on every line
/// of `waymark repl`, since a module outside the plugin's folder read as changed.
@Suite struct ModuleRootReloadTests {
  /// A project with `lib/m.lua` and the plugin folder `plugins/p`, whose `p.lua` requires
  /// `m` (from `lib/`) and `sys` (from a system-style root outside the project: `sys54/sys.lua`
  /// is a link to `sys51/sys.lua`, as Debian installs), and a host loaded on it.
  struct Fixture {
    let project: PluginFolder
    let system: PluginFolder
    let fixture: PluginFixture

    static let plugin = """
      local m = require("m")
      local sys = require("sys")
      local p = { name = "p" }
      function p.setup() print("setup " .. m .. " " .. sys) end
      return p
      """

    init(plugin: String = Fixture.plugin) throws {
      project = try PluginFolder()
      system = try PluginFolder()
      for folder in ["lib", "plugins/p"] {
        try FileManager.default.createDirectory(atPath: project.file(folder), withIntermediateDirectories: true)
      }
      for folder in ["sys51", "sys54"] {
        try FileManager.default.createDirectory(atPath: system.file(folder), withIntermediateDirectories: true)
      }
      try project.write("lib/m.lua", "return 'm1'")
      try project.write("plugins/p/p.lua", plugin)
      try system.write("sys51/sys.lua", "return 's1'")
      try FileManager.default.createSymbolicLink(
        atPath: system.file("sys54/sys.lua"), withDestinationPath: system.file("sys51/sys.lua"))
      var configuration = PluginHost.Configuration.forTests
      configuration.projectFolder = URL(fileURLWithPath: project.path)
      configuration.moduleRoots = [project.file("lib"), system.file("sys54")].map { URL(fileURLWithPath: $0) }
      fixture = try PluginFixture([:], configuration: configuration)
      fixture.host.loadPlugins(from: [project.file("plugins/p")])
    }

    var reloads: Int { fixture.records(.pluginReloaded).count }
  }

  @Test func nothingChangedReloadsNothing() throws {
    let f = try Fixture()
    #expect(f.fixture.logs == ["setup m1 s1"])
    for _ in 0..<5 { #expect(f.fixture.host.reloadChangedPlugins().isEmpty) }
    #expect(f.reloads == 0)
    #expect(f.fixture.logs == ["setup m1 s1"], "setup ran once")
    #expect(f.fixture.errors.isEmpty)
  }

  @Test func aChangedModuleOfTheProjectsLibReloadsOnce() throws {
    let f = try Fixture()
    try f.project.write("lib/m.lua", "return 'm2'")
    f.fixture.host.reloadChangedPlugins()
    f.fixture.host.reloadChangedPlugins()
    #expect(f.reloads == 1)
    #expect(f.fixture.logs == ["setup m1 s1", "setup m2 s1"])
  }

  @Test func aChangedModuleBehindALinkOfASystemRootReloadsOnce() throws {
    let f = try Fixture()
    try f.system.write("sys51/sys.lua", "return 's2'")  // the link's target: the link itself is unchanged
    f.fixture.host.reloadChangedPlugins()
    f.fixture.host.reloadChangedPlugins()
    #expect(f.reloads == 1)
    #expect(f.fixture.logs == ["setup m1 s1", "setup m1 s2"])
  }

  /// A plugin that failed to load is retried when a module it read changes, and only then: the
  /// error is reported once, not again at every check.
  @Test func aPluginThatFailedIsRetriedOnlyWhenAModuleChanges() throws {
    let f = try Fixture(plugin: "local m = require('m')\nlocal sys = require('sys')\nerror('broken ' .. m)")
    #expect(f.fixture.errors.count == 1)
    for _ in 0..<3 { f.fixture.host.reloadChangedPlugins() }
    #expect(f.fixture.errors.count == 1, "\(f.fixture.errors.map { $0.message ?? "" })")
    try f.system.write("sys51/sys.lua", "return 's2'")
    f.fixture.host.reloadChangedPlugins()
    f.fixture.host.reloadChangedPlugins()
    #expect(f.fixture.errors.count == 2)
  }

  /// The same through the live session behind `waymark serve` and `waymark repl`: checking
  /// for changes between inputs reloads nothing until the module changes.
  @Test func aLiveSessionReloadsOnlyWhenTheModuleChanges() throws {
    let f = try Fixture()
    try f.project.write("s.lua", "local map = waymark.map{ plugins = { 'plugins/p' } }")
    var options = ScriptOptions.forTests
    options.plugins.projectFolder = URL(fileURLWithPath: f.project.path)
    options.plugins.moduleRoots = [f.project.file("lib"), f.system.file("sys54")].map { URL(fileURLWithPath: $0) }
    let session = try LiveSession(script: f.project.file("s.lua"), options: options)
    func reloads() -> Int { session.takeRecords().filter { $0.event == .pluginReloaded }.count }
    _ = reloads()
    for _ in 0..<5 { session.reloadChangedPlugins() }
    #expect(reloads() == 0)
    try f.project.write("lib/m.lua", "return 'm2'")
    session.reloadChangedPlugins()
    session.reloadChangedPlugins()
    #expect(reloads() == 1)
  }
}
