import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// Hot reload: fresh state, teardown/setup/on_reload, failed reloads keep the old version,
/// modules tracked, folders watched, and memory flat over 1,000 reloads.
@Suite struct ReloadTests {
  static func counter(_ version: Int) -> String {
    """
    local p = { name = "counter", state = { taps = 0 } }
    function p.setup(map) print("setup v\(version)") end
    function p.teardown(map) print("teardown v\(version)") end
    function p.on_reload(old, map) p.state.taps = old.taps; print("on_reload v\(version) taps=" .. old.taps) end
    function p.did_tap_marker(map, marker) p.state.taps = p.state.taps + 1 end
    return p
    """
  }

  @Test func aChangedFileReloadsBetweenEventsAndCarriesItsState() throws {
    let f = try PluginFixture(["counter.lua": Self.counter(1)])
    try f.map.tap(f.sydney)
    try f.map.tap(f.sydney)
    try f.folder.write("counter.lua", Self.counter(2))
    let diagnostics = f.host.reloadChangedPlugins()
    #expect(diagnostics.isEmpty)
    #expect(f.logs == ["setup v1", "teardown v1", "setup v2", "on_reload v2 taps=2"])
    #expect(f.records(.pluginReloaded).first?.pluginName == "counter")
    #expect(f.host.reloadChangedPlugins().isEmpty)  // nothing changed: nothing happens
    #expect(f.records(.pluginReloaded).count == 1)
  }

  @Test func saveStateCarriesMarkersByIdentity() throws {
    let v1 = """
      local p = {}
      local last
      function p.did_tap_marker(map, marker) last = marker end
      function p.save_state() return { last = last, fn = print, list = { 1, "two", { three = 3.5 } } } end
      return p
      """
    let v2 = """
      local p = {}
      function p.on_reload(old, map)
        print(old.last == map:marker("sydney"), old.fn, old.list[2], old.list[3].three)
      end
      return p
      """
    let f = try PluginFixture(["keep.lua": v1])
    try f.map.tap(f.sydney)
    try f.folder.write("keep.lua", v2)
    f.host.reloadChangedPlugins()
    #expect(f.logs == ["true\tnil\ttwo\t3.5"])
  }

  @Test func aFailedReloadKeepsTheOldVersionAndReportsFileAndLine() throws {
    let f = try PluginFixture(["counter.lua": Self.counter(1)])
    try f.folder.write("counter.lua", "local p = {}\nfunction p.did_tap_marker(\nreturn p\n")
    let diagnostics = f.host.reloadChangedPlugins()
    #expect(diagnostics.first?.line == 3)
    let error = try #require(f.errors.first)
    #expect(error.handler == "reload")
    #expect(error.message?.contains("counter.lua:3:") == true)
    try f.map.tap(f.sydney)  // the old version still runs
    #expect(f.errors.count == 1)
    #expect(f.host.reloadChangedPlugins().isEmpty)  // reported once per change
  }

  @Test func aChangedModuleReloadsThePluginThatRequiredIt() throws {
    let f = try PluginFixture([
      "main.lua": "local text = require('texts'); return { setup = function(map) print(text.greeting) end }",
      "texts.lua": "return { greeting = 'hello' }",
    ])
    try f.folder.write("texts.lua", "return { greeting = 'bonjour' }")
    f.host.reloadChangedPlugins()
    #expect(f.logs == ["hello", "bonjour"])  // texts.lua itself is also loaded as a plugin: it returns a table
  }

  @Test func newAndDeletedFilesOfAWatchedFolder() throws {
    let f = try PluginFixture(["a.lua": "return {}"])
    try f.folder.write("b.lua", "return { setup = function() print('b set up') end }")
    f.host.reloadChangedPlugins()
    #expect(f.host.plugins.map(\.name) == ["a", "b"])
    try f.folder.remove("a.lua")
    f.host.reloadChangedPlugins()
    #expect(f.host.plugins.map(\.name) == ["b"])
    #expect(f.records(.pluginUnloaded).first?.pluginName == "a")
    #expect(f.errors.isEmpty, "a deleted file is unloaded, not a failed reload")
  }

  @Test func aFileThatFailedToLoadIsRetriedWhenItChanges() throws {
    let f = try PluginFixture(["late.lua": "return {"])
    #expect(f.host.plugins.isEmpty)
    try f.folder.write("late.lua", "return { name = 'late' }")
    f.host.reloadChangedPlugins()
    #expect(f.host.plugins.map(\.name) == ["late"])
  }

  /// A new plugin whose module was broken (or missing) when it first loaded stays a failed
  /// file only until the module is fixed: the fix of the module loads it, though the plugin
  /// file itself never changed.
  @Test func aNewPluginLoadsOnceItsBrokenOrMissingModuleIsFixed() throws {
    let f = try PluginFixture(["a.lua": "return {}"])
    try FileManager.default.createDirectory(atPath: f.folder.file("lib"), withIntermediateDirectories: true)
    try f.folder.write("lib/texts.lua", "return { greeting = ")
    try f.folder.write(
      "main.lua", "local texts = require('lib.texts'); local more = require('lib.more')\nreturn { name = 'main' }")
    f.host.reloadChangedPlugins()
    #expect(f.host.plugins.map(\.name) == ["a"])
    #expect(f.errors.last?.message?.contains("texts.lua:1:") == true)
    try f.folder.write("lib/texts.lua", "return { greeting = 'hello' }")
    f.host.reloadChangedPlugins()
    #expect(f.host.plugins.map(\.name) == ["a"], "lib/more.lua is still missing")
    #expect(f.errors.last?.message?.contains("module 'lib.more' not found") == true)
    try f.folder.write("lib/more.lua", "return {}")
    f.host.reloadChangedPlugins()
    #expect(f.host.plugins.map(\.name) == ["a", "main"])
    #expect(f.host.watchedFiles.contains(f.folder.file("lib/more.lua")))
  }

  /// The same for a plugin already loaded whose edit requires a new module that is broken:
  /// fixing the module reloads it.
  @Test func aFailedReloadIsRetriedWhenAModuleOnlyTheNewVersionRequiresIsFixed() throws {
    let f = try PluginFixture(["counter.lua": Self.counter(1)])
    try FileManager.default.createDirectory(atPath: f.folder.file("lib"), withIntermediateDirectories: true)
    try f.folder.write("lib/extra.lua", "return {")
    try f.folder.write("counter.lua", "local extra = require('lib.extra')\n" + Self.counter(2))
    f.host.reloadChangedPlugins()
    #expect(f.errors.last?.handler == "reload")
    #expect(f.host.reloadChangedPlugins().isEmpty, "reported once per change")
    try f.folder.write("lib/extra.lua", "return {}")
    f.host.reloadChangedPlugins()
    #expect(f.records(.pluginReloaded).count == 1)
    #expect(f.logs.last == "on_reload v2 taps=0")
  }

  /// State nested deeper than 32 tables cannot all be carried over: what is dropped is said in
  /// a plugin_error naming where, and the rest still reaches on_reload.
  @Test func saveStateDeeperThan32LevelsSaysWhatWasDropped() throws {
    let v1 = """
      local p = {}
      function p.save_state()
        local deep = {}
        local at = deep
        for i = 1, 40 do at.next = { level = i }; at = at.next end
        return { taps = 3, deep = deep }
      end
      return p
      """
    let v2 = """
      local p = {}
      function p.on_reload(old, map)
        local n, at = 0, old.deep
        while at.next do n = n + 1; at = at.next end
        print(old.taps, n)
      end
      return p
      """
    let f = try PluginFixture(["keep.lua": v1])
    try f.folder.write("keep.lua", v2)
    f.host.reloadChangedPlugins()
    let error = try #require(f.errors.first)
    #expect(error.handler == "save_state")
    #expect(
      error.message?.contains(
        "the state to carry over is nested deeper than 32 tables: 1 table was dropped, the first at "
          + "state.deep" + String(repeating: ".next", count: 31)) == true, "\(error.message ?? "")")
    #expect(error.message?.contains("the rest is carried over") == true)
    #expect(f.logs == ["3\t30"], "the first 31 levels arrive")
    #expect(f.records(.pluginReloaded).count == 1)
  }

  @Test func aThousandReloadsLeaveMemoryFlat() throws {
    let source = """
      local p = { state = { n = 0 } }
      function p.on_reload(old) p.state.n = old.n + 1 end
      function p.did_tap_marker(map, marker) map:after(10, function() end); return marker.id == "x" end
      return p
      """
    let f = try PluginFixture(["r.lua": source])
    var released: [() -> Bool] = []
    func reloadOnce() throws {
      try f.map.tap(f.sydney)  // leaves a timer and marker userdata in the state
      guard let old = f.host.instances.first else { return }
      weak var weakInstance = old
      weak var weakState = old.state
      weak var weakBridge = old.bridge
      released.append { weakInstance == nil && weakState == nil && weakBridge == nil }
      f.host.reload(old)
    }
    for _ in 0..<1000 { try reloadOnce() }
    #expect(released.allSatisfy { $0() })  // every old state, bridge and instance is gone
    #expect(f.host.instances.count == 1)
    #expect(f.errors.isEmpty)
    #expect(f.map.clock.pendingTaskCount <= 3)  // old timers cancelled (frames and tiles aside)
    // The weak references above are the exact check (the process's RSS is not: other tests
    // run in parallel in this process); the live state stays as small as a fresh one.
    #expect(try #require(f.host.instances.first).state.memoryInUse < 1 << 20)
    let stack = try #require(f.host.instances.first).state.stack
    stack.push(try #require(f.host.instances.first).table)
    stack.rawGetField("state", ofTableAt: -1)
    stack.rawGetField("n", ofTableAt: -1)
    #expect(stack.integer(at: -1) == 1000)
  }

}
