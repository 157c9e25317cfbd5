import Foundation
import LuaKit
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// Lifetimes by construction: every object Lua can reach (a map, a marker, an overlay, a
/// timer, a bound method, an info-window table, a callback the map keeps) either keeps
/// working or raises a clear Lua error once its owner is gone; none can crash the process.
@Suite struct StaleHandleTests {
  /// Runs `script` (as demo.lua) and returns its outcome.
  func run(_ script: String) throws -> ScriptOutcome {
    let folder = try PluginFolder(["demo.lua": script])
    return ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
  }

  // MARK: Scripts: the map replaced by a later waymark.map{}

  @Test func aBoundMethodOfAReplacedMapRaisesWithTheScriptLine() throws {
    let outcome = try run(
      """
      local m1 = waymark.map{}
      local add = m1.add_marker
      waymark.map{}
      add(m1, { position = { lat = 0, lng = 0 } })
      """)
    let error = try #require(outcome.error)
    #expect(
      error.hasSuffix("demo.lua:4: this map was replaced by a later waymark.map{}; a script drives one map at a time"))
  }

  @Test func theSameBoundMethodKeepsWorkingOnTheCurrentMap() throws {
    let outcome = try run(
      """
      local m1 = waymark.map{}
      local add = m1.add_marker
      local m2 = waymark.map{}
      local marker = add(m2, { id = "here", position = { lat = 0, lng = 0 } })
      expect(m2:marker("here") == marker, "a method belongs to the class, not to one map")
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  @Test func propertiesOfAReplacedMapRaise() throws {
    let outcome = try run(
      """
      local m1 = waymark.map{}
      local m2 = waymark.map{}
      for _, read in ipairs{ "camera", "info_window", "time", "selected_marker", "padding" } do
        local ok, message = pcall(function() return m1[read] end)
        expect(not ok and message:find("replaced by a later waymark.map{}", 1, true), read .. ": " .. tostring(message))
      end
      local ok, message = pcall(function() m1.selected_marker = nil end)
      expect(not ok and message:find("demo.lua:7: this map was replaced", 1, true), message)
      ok, message = pcall(m2.settle, m1)
      expect(not ok and message:find("replaced by a later", 1, true), message)
      ok, message = pcall(function() return m1.settle end)
      expect(not ok and message:find("replaced by a later", 1, true), message)
      expect_eq(m2.time, 0, "the current map works")
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  @Test func markersAndOverlaysOfAReplacedMapStayReadableAndRefuseTheNewMap() throws {
    let outcome = try run(
      """
      local m1 = waymark.map{}
      local old = m1:add_marker{ id = "old", position = { lat = 1, lng = 2 }, title = "Old" }
      local line = m1:add_polyline{ path = { { 0, 0 }, { 1, 1 } }, id = "line" }
      local m2 = waymark.map{}
      expect_eq(old.id, "old")
      expect_eq(old.title, "Old")
      old.title = "Still mine"
      expect_eq(old.title, "Still mine", "a marker keeps working as a value")
      expect_eq(old.map, nil, "it is not on the current map")
      old.map = nil
      local ok, message = pcall(m2.tap, m2, old)
      expect(not ok and message:find("marker old is not on this map", 1, true), message)
      ok, message = pcall(m2.animate_marker, m2, old, { lat = 0, lng = 0 })
      expect(not ok and message:find("marker old is not on this map", 1, true), message)
      ok, message = pcall(old.animate_position, old, { lat = 0, lng = 0 })
      expect(not ok and message:find("not on this map", 1, true), message)
      ok, message = pcall(function() old.map = m2 end)
      expect(not ok and message:find("on another map", 1, true), message)
      expect_eq(line.id, "line")
      expect_eq(line.map, nil)
      ok, message = pcall(m2.remove_overlay, m2, line)
      expect(not ok and message:find("overlay line is not on this map", 1, true), message)
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  @Test func timersAndCallbacksOfAReplacedMapNeverRun() throws {
    let outcome = try run(
      """
      local m1 = waymark.map{}
      local t = m1:after(1, function() print("old timer") end)
      m1:animate({ zoom = 5 }, { duration = 2, on_complete = function() print("old animation") end })
      m1:advance(0.5)
      local m2 = waymark.map{}
      expect_eq(t.pending, false, "retiring the map cancelled its timer")
      t:cancel()
      m2:after(1, function() print("new timer") end)
      m2:settle()
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    let logs = outcome.records.filter { $0.event == .log }.compactMap(\.message)
    #expect(logs == ["new timer"])
  }

  @Test func anInfoWindowTableKeepsItsValues() throws {
    let outcome = try run(
      """
      local m1 = waymark.map{}
      local m = m1:add_marker{ id = "m", position = { lat = 0, lng = 0 }, title = "T" }
      m1.selected_marker = m
      local w = m1.info_window
      waymark.map{}
      expect(w.marker == m and w.kind == "default", "a plain table, still readable")
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  // MARK: Plugins

  @Test func aPluginKeepingARemovedMarkerGetsAClearError() throws {
    let source = """
      local p = {}
      function p.setup(map) p.kept = map:marker("sydney") end
      function p.did_tap_marker(map, marker)
        print(p.kept.id, p.kept.title, p.kept.map)
        map:remove_marker(p.kept)
      end
      return p
      """
    let f = try PluginFixture(["keep.lua": source])
    try f.map.remove(f.sydney)
    try f.map.tap(f.melbourne)
    #expect(f.logs == ["sydney\tSydney\tnil"])
    let message = try f.singleError(plugin: "keep", handler: "did_tap_marker", line: 5)
    #expect(message.contains("marker sydney is not on this map"))
  }

  @Test func nothingOfAnOldVersionRunsAfterAHotReload() throws {
    let v1 = """
      local p = {}
      function p.did_tap_marker(map, marker)
        p.last, p.map = marker, map
        map:after(1, function() print("v1 timer") end)
        map:animate({ zoom = 6 }, { duration = 2, on_complete = function() print("v1 animation") end })
        return true
      end
      function p.save_state() return { last = p.last, map = p.map } end
      return p
      """
    let v2 = """
      local p = {}
      function p.on_reload(old, map)
        print("v2", old.last.id, old.last.map == map, old.map)
        map:after(1, function() print("v2 timer", old.last.title) end)
      end
      return p
      """
    let f = try PluginFixture(["r.lua": v1])
    try f.map.tap(f.sydney)
    try f.map.advance(by: 0.5)
    try f.folder.write("r.lua", v2)
    #expect(f.host.reloadChangedPlugins().isEmpty)
    try f.map.settle()
    #expect(f.logs == ["v2\tsydney\ttrue\tnil", "v2 timer\tSydney"])
    #expect(f.errors.isEmpty)
    #expect(f.map.camera.zoom > 4, "the old version's animation still moved the camera; only its callback is gone")
  }

  @Test func aDisabledPluginsTimersDoNotRun() throws {
    let source = """
      local p = {}
      function p.did_tap_marker(map, marker)
        map:after(1, function() print("timer") end)
        error("no")
      end
      return p
      """
    var configuration = PluginHost.Configuration.forTests
    configuration.maxConsecutiveFailures = 1
    let f = try PluginFixture(["d.lua": source], configuration: configuration)
    try f.map.tap(f.sydney)
    #expect(f.host.plugins.first?.isDisabled == true)
    try f.map.settle()
    #expect(f.logs.isEmpty)
  }

  @Test func aMapOutlivingItsPluginHostRunsNoneOfItsCallbacks() throws {
    let source = """
      local p = {}
      function p.setup(map)
        map:after(1, function() print("timer") end)
        map:animate({ zoom = 7 }, { duration = 2, on_complete = function() print("done") end })
        map:animate_marker(map:marker("sydney"), { lat = 0, lng = 0 }, { on_complete = function() print("moved") end })
      end
      return p
      """
    let map = try MapView(camera: CameraPosition(target: Place.melbourne, zoom: 4))
    let sydney = try map.addMarker(MarkerOptions(position: Place.sydney, id: "sydney"))
    let folder = try PluginFolder(["p.lua": source])
    var host: PluginHost? = PluginHost(map: map, configuration: .forTests)
    host?.loadPlugins(from: [folder.path])
    weak let bridge = host?.instances.first?.bridge
    #expect(bridge != nil)
    host = nil
    #expect(bridge == nil, "the bridge went with its state")
    try map.settle()
    #expect(!map.trace.records.contains { $0.event == .log || $0.event == .pluginError })
    #expect(map.camera.zoom == 7 && sydney.position == Coordinate(latitude: 0, longitude: 0))
  }

  // MARK: The bridge's own lifetime

  @Test func theStateOwnsItsBridgeUntilItCloses() throws {
    let state = try LuaState(libraries: [.base])
    weak let bridge = try LuaMapBridge.install(in: state)
    #expect(bridge != nil, "nothing but the state holds it")
    #expect(state.attachment === bridge)
    state.close()
    #expect(bridge == nil)
  }
}
