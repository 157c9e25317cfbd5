import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// The live session behind `waymark serve` and `waymark repl`: the map outlives the script,
/// input and Lua lines drive it, and edited plugins are hot-reloaded into it.
@Suite struct LiveSessionTests {
  /// A plugin whose window says which version answers and how many taps it has seen,
  /// carried from version to version by `save_state` / `on_reload`.
  static func windowPlugin(_ label: String) -> String {
    """
    local p = { name = "window" }
    local taps = 0
    function p.did_tap_marker(map, marker) taps = taps + 1 end
    function p.marker_info_window(map, marker) return "\(label) taps=" .. taps end
    function p.save_state() return { taps = taps } end
    function p.on_reload(old, map) taps = old.taps end
    return p
    """
  }

  static let script = """
    local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 4 }, plugins = { "plugins" } }
    local home = map:add_marker{ id = "home", position = { lat = 0, lng = 0 }, title = "Home" }
    greeting = "hello"
    return { home = home }
    """

  /// A session on `script` with `window.lua` in its plugins folder (which is removed when
  /// the fixture is released).
  struct Fixture {
    let session: LiveSession
    let folder: PluginFolder

    init(_ script: String = LiveSessionTests.script, options: ScriptOptions = .forTests) throws {
      folder = try PluginFolder()
      try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
      try folder.write("plugins/window.lua", windowPlugin("v1"))
      try folder.write("demo.lua", script)
      session = try LiveSession(script: folder.file("demo.lua"), options: options)
    }
  }

  @Test func theMapOutlivesTheScriptAndTakesInput() throws {
    let fixture = try Fixture()
    let session = fixture.session
    let map = try #require(session.map)
    #expect(map.marker(id: "home") != nil)
    #expect(session.takeRecords().contains { $0.event == .pluginLoaded })
    let step = session.perform(.tap(Point(x: map.viewSize.width / 2, y: map.viewSize.height / 2)))
    #expect(step.error == nil)
    #expect(step.records.map(\.event.rawValue).starts(with: ["did_tap_marker", "marker_info_window"]))
    #expect(map.selectedMarker?.id == "home")
    #expect(session.takeRecords().isEmpty, "an input's records are handed out once")
  }

  @Test func refusedInputSaysWhyAndChangesNothing() throws {
    let fixture = try Fixture()
    let session = fixture.session
    _ = session.takeRecords()
    let step = session.perform(.tapInfoWindow)
    #expect(step.error == "tap_info_window: no info window is shown")
    #expect(step.records.isEmpty)
    #expect(
      session.perform(.drag(marker: "nowhere", to: Point(x: 1, y: 1), duration: 1)).error?.contains("nowhere") == true)
    #expect(session.perform(.advance(seconds: -1)).error?.contains("negative") == true)
  }

  @Test func anEditedPluginIsReloadedIntoTheRunningMapWithItsState() throws {
    let fixture = try Fixture()
    let session = fixture.session
    let map = try #require(session.map)
    #expect(try window(after: session) == #""v1 taps=1""#)
    #expect(try window(after: session) == #""v1 taps=2""#)
    #expect(session.plugins.first?.version == 1)
    try fixture.folder.write("plugins/window.lua", Self.windowPlugin("v2"))
    #expect(session.reloadChangedPlugins().isEmpty)
    #expect(session.takeRecords().contains { $0.event == .pluginReloaded && $0.pluginName == "window" })
    #expect(session.map === map, "the same map: not a rerun")
    #expect(try window(after: session) == #""v2 taps=3""#, "on_reload carried the taps")
    let plugin = try #require(session.plugins.first)
    #expect(plugin.version == 2 && plugin.error == nil && plugin.digest.count == 8)
  }

  @Test func aBrokenEditKeepsTheOldVersionAnsweringAndSaysWhy() throws {
    let fixture = try Fixture()
    let session = fixture.session
    #expect(try window(after: session) == #""v1 taps=1""#)
    let digest = session.plugins.first?.digest
    try fixture.folder.write("plugins/window.lua", "local p = {}\nfunction p.marker_info_window(\nreturn p\n")
    #expect(session.reloadChangedPlugins().first?.line == 3)
    let error = try #require(session.takeRecords().first { $0.event == .pluginError })
    #expect(error.handler == "reload" && error.message?.contains("window.lua:3:") == true)
    let plugin = try #require(session.plugins.first)
    #expect(plugin.version == 1 && plugin.digest == digest)
    #expect(plugin.error?.contains("window.lua:3:") == true)
    #expect(try window(after: session) == #""v1 taps=2""#, "the old version still answers")
    try fixture.folder.write("plugins/window.lua", Self.windowPlugin("v3"))
    session.reloadChangedPlugins()
    #expect(try window(after: session) == #""v3 taps=3""#)
    #expect(session.plugins.first?.version == 2 && session.plugins.first?.error == nil)
  }

  @Test func reloadAllReloadsUnchangedPluginsToo() throws {
    let fixture = try Fixture()
    let session = fixture.session
    _ = session.takeRecords()
    #expect(session.reloadChangedPlugins().isEmpty)
    #expect(!session.takeRecords().contains { $0.event == .pluginReloaded })
    session.reloadAllPlugins()
    #expect(session.takeRecords().contains { $0.event == .pluginReloaded })
    #expect(session.plugins.first?.version == 2)
  }

  @Test func aPluginFileThatNeverLoadedIsListedWithItsError() throws {
    let fixture = try Fixture()
    let session = fixture.session
    try fixture.folder.write("plugins/broken.lua", "return {\n")
    session.reloadChangedPlugins()
    let broken = try #require(session.plugins.first { $0.file.hasSuffix("broken.lua") })
    #expect(broken.version == 0 && broken.error?.contains("broken.lua:2:") == true)
  }

  @Test func linesEvaluateInTheScriptsEnvironment() throws {
    let fixture = try Fixture()
    let session = fixture.session
    _ = session.takeRecords()
    #expect(session.evaluate("1 + 1") == .values(["2"]))
    #expect(session.evaluate("{ 1, a = 'b' }") == .values([#"{ 1, a = "b" }"#]), "shown with inspect")
    #expect(session.evaluate("home.id, greeting") == .values([#""home""#, #""hello""#]), "returned locals and globals")
    #expect(session.evaluate("map.camera.zoom") == .values(["4.0"]))
    #expect(session.evaluate("x = 41") == .values([]))
    #expect(session.evaluate("x + 1") == .values(["42"]), "a line's globals persist")
    #expect(session.evaluate("map:tap(home)") == .values([]))
    #expect(session.takeRecords().first?.event == .callback(.didTapMarker), "the line's records wait for takeRecords")
  }

  @Test func incompleteChunksAskForMoreAsLuaDoes() throws {
    let fixture = try Fixture()
    let session = fixture.session
    #expect(session.evaluate("function f(a)") == .incomplete)
    #expect(session.evaluate("x =") == .incomplete)
    #expect(session.evaluate("function f(a)\n  return a * 2\nend") == .values([]))
    #expect(session.evaluate("f(21)") == .values(["42"]))
    guard case .failure(let message) = session.evaluate("1 +* 2") else {
      Issue.record("a syntax error is not incomplete")
      return
    }
    #expect(message.hasPrefix("stdin:1:"))
  }

  @Test func errorsAndRunawayLinesAreReportedAndTheSessionGoesOn() throws {
    var options = ScriptOptions.forTests
    options.scriptBudget = .milliseconds(200)
    let fixture = try Fixture(options: options)
    let session = fixture.session
    guard case .failure(let message) = session.evaluate("error('boom')") else {
      Issue.record("expected a failure")
      return
    }
    #expect(message == "stdin:1: boom")
    guard case .failure(let budget) = session.evaluate("while true do end") else {
      Issue.record("expected the budget to stop the loop")
      return
    }
    #expect(budget.contains("time budget"))
    #expect(session.evaluate("home.title") == .values([#""Home""#]))
  }

  @Test func aScriptThatCannotStartGivesNoSession() throws {
    let folder = try PluginFolder()
    try folder.write("bad.lua", "local x = \n")
    #expect(throws: LiveSessionError.self) { try LiveSession(script: folder.file("bad.lua"), options: .forTests) }
    #expect(throws: LiveSessionError.self) { try LiveSession(script: folder.file("missing.lua"), options: .forTests) }
  }

  @Test func aScriptThatStopsWithAnErrorStillGivesItsMap() throws {
    let fixture = try Fixture(Self.script.replacingOccurrences(of: "return", with: "error('late')\nreturn"))
    let session = fixture.session
    #expect(session.startup.error?.contains("late") == true)
    #expect(session.map?.marker(id: "home") != nil)
  }

  /// Taps `home`, reads the shown window's text through Lua, and closes it.
  private func window(after session: LiveSession) throws -> String {
    let map = try #require(session.map)
    let step = session.perform(.tap(Point(x: map.viewSize.width / 2, y: map.viewSize.height / 2)))
    #expect(step.error == nil)
    let text = session.evaluate("map.info_window and map.info_window.content")
    _ = session.perform(.tap(Point(x: 5, y: 5)))
    _ = session.takeRecords()
    guard case .values(let values) = text, let first = values.first else { return "" }
    return first
  }

  /// `waymark serve` and `waymark repl` drive the map through this session: the same
  /// bounds on durations and on the frames and timers of one call hold there.
  @Test func liveInputAndLinesHaveTheSameVirtualTimeBounds() throws {
    var options = ScriptOptions.forTests
    options.taskLimit = 300
    let fixture = try Fixture(options: options)
    let session = fixture.session
    let pan = session.perform(.pan(dx: 10, dy: 0, duration: 1e9))
    #expect(pan.error == "pan.duration: 1000000000 is more than 600 (the longest duration, ten minutes)")
    #expect(
      session.evaluate("map:animate({ zoom = 8 }, { duration = 1e9 })")
        == .failure(
          "stdin:1: animate.duration: 1000000000 is more than 600 (the longest duration, ten minutes)"))
    _ = session.evaluate("function again() map:after(0, again) end; again()")
    guard case .failure(let message) = session.evaluate("map:advance(1e9)") else {
      Issue.record("advance over a re-arming timer ended")
      return
    }
    #expect(message.hasPrefix("stdin:1: advance: stopped at 0 s of virtual time: it ran 300 frames and timers"))
    #expect(throws: MapError.self) { try session.advance(by: 1) }
    #expect(session.evaluate("1 + 1") == .values(["2"]), "the session still answers")
  }

  /// The live clock's steps run outside any Lua line: a plugin timer that re-arms itself
  /// and works each time stops the step at the script budget of wall-clock time.
  @Test func aLiveStepStopsAtTheScriptBudgetOfWallClockTime() throws {
    var options = ScriptOptions.forTests
    options.scriptBudget = .milliseconds(20)
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    try folder.write(
      "plugins/busy.lua",
      """
      local p = { name = "busy" }
      local function work(map)
        local s = 0
        for i = 1, 20000 do s = s + i % 7 end
        map:after(0, function() work(map) end)
      end
      function p.setup(map) map:after(0, function() work(map) end) end
      return p
      """)
    try folder.write("demo.lua", LiveSessionTests.script)
    let session = try LiveSession(script: folder.file("demo.lua"), options: options)
    for step in [
      { try session.advance(by: 1) },
      { if let e = session.perform(.advance(seconds: 1)).error { throw LiveStepError(e) } },
    ] as [() throws -> Void] {
      do {
        try step()
        Issue.record("a step over a busy re-arming timer ended")
      } catch {
        #expect("\(error)".contains("advance: stopped at"), "\(error)")
        #expect("\(error)".contains("it ran for the script budget of wall-clock time"), "\(error)")
      }
    }
    #expect(session.evaluate("1 + 1") == .values(["2"]), "the session still answers")
  }
}

/// A live step's error message, as an Error.
private struct LiveStepError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The REPL's completion (`waymark repl` on a terminal, through libedit).
@Suite struct LiveSessionCompletionTests {
  static let script = """
    local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 4 } }
    local home = map:add_marker{ id = "home", position = { lat = 0, lng = 0 }, title = "Home" }
    local settings = { speed = 2, spin = true, [1] = "not a name" }
    greeting = "hello"
    return { home = home }
    """

  @Test func namesCompleteAmongWhatALineReaches() throws {
    let fixture = try LiveSessionTests.Fixture(Self.script)
    let session = fixture.session
    #expect(session.completions(of: "gree") == ["greeting"], "a script global")
    #expect(
      session.completions(of: "print(set") == ["setmetatable", "settings"], "a top-level local, after other text")
    #expect(session.completions(of: "ho") == ["home"], "a field of the returned table")
    #expect(session.completions(of: "ma").contains("map") && session.completions(of: "ma").contains("math"))
    let everything = session.completions(of: "x = ")
    #expect(everything.contains("settings") && everything.contains("waymark") && !everything.contains("end"))
  }

  @Test func membersCompleteByWhatTheValueIs() throws {
    let fixture = try LiveSessionTests.Fixture(Self.script)
    let session = fixture.session
    // A map's and a marker's properties after '.', their methods after ':' (the Lua API's).
    #expect(session.completions(of: "map.cam") == ["map.camera", "map.camera_target_bounds"])
    let adds = session.completions(of: "map:add_")
    #expect(adds.contains("map:add_marker") && adds.contains("map:add_polygon"))
    #expect(adds.allSatisfy { LuaAPI.entry("Map", String($0.dropFirst(4)))?.kind == .method }, "\(adds)")
    #expect(session.completions(of: "home.tit") == ["home.title"])
    #expect(!session.completions(of: "home.").contains { $0.hasPrefix("home.set_") || $0 == "home.remove" })
    #expect(session.completions(of: "map.selected") == ["map.selected_marker"])
    // A table's string keys; the fields of a value the chain reaches.
    #expect(session.completions(of: "settings.sp") == ["settings.speed", "settings.spin"])
    #expect(session.completions(of: "map.camera.zo") == ["map.camera.zoom"])
    #expect(session.completions(of: "greeting.") == [] && session.completions(of: "nothing.x") == [])
  }
}
