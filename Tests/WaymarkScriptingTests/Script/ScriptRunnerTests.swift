import Foundation
import LuaKit
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

@Suite struct ScriptRunnerTests {
  /// Runs `script` (saved as demo.lua beside `plugins`) and returns the outcome.
  /// Runs `script` saved as demo.lua in a folder whose `plugins` subfolder holds `plugins`.
  func run(_ script: String, plugins: [String: String] = [:], options: ScriptOptions = .forTests) throws
    -> (ScriptOutcome, PluginFolder)
  {
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    for (name, source) in plugins { try folder.write("plugins/" + name, source) }
    try folder.write("demo.lua", script)
    return (ScriptRunner.run(folder.file("demo.lua"), options: options), folder)
  }

  @Test func aScriptBuildsAMapDrivesItAndChecksIt() throws {
    let (outcome, _) = try run(
      """
      local map = waymark.map{ camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 4 } }
      local m = map:add_marker{ id = "melbourne", position = { lat = -37.81969, lng = 144.966085 }, title = "M" }
      map:tap(m)
      map:settle()
      expect(map.selected_marker == m)
      expect_eq(map.info_window.kind, "default")
      print("done at " .. map.time)
      """)
    #expect(outcome.error == nil && outcome.failures.isEmpty)
    let events = outcome.records.map(\.event.rawValue).filter { !$0.contains("tile") }
    #expect(events.starts(with: ["did_tap_marker", "marker_info_window", "marker_info_contents", "info_window_shown"]))
    #expect(outcome.records.last?.event == .log)
    #expect(
      outcome.records.last?.message == "done at 0.25", "the tiles load at 0.25 s; the centring moved nothing (R23)")
  }

  @Test func pluginsOfTheScriptAndOfTheOptionsComposeAndShareUserData() throws {
    let (outcome, folder) = try run(
      """
      local map = waymark.map{ plugins = { "plugins" } }
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 }, user_data = { count = 41 } }
      map:tap(m)
      expect_eq(m.user_data.count, 42, "the plugin's assignment is seen by the script")
      """,
      plugins: [
        "counter.lua": """
        return { did_tap_marker = function(map, marker)
          marker.user_data = { count = marker.user_data.count + 1 }
          return true
        end }
        """
      ])
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    #expect(
      outcome.files.contains(folder.file("plugins/counter.lua")) && outcome.files.contains(folder.file("demo.lua")))
  }

  @Test func aNewMapRetiresThePreviousOne() throws {
    let (outcome, _) = try run(
      """
      local first = waymark.map{ policy = "ios" }
      local second = waymark.map{ policy = "web" }
      expect_eq(second.policy, "web")
      local ok, message = pcall(function() return first.camera end)
      expect(not ok and message:find("replaced by a later waymark.map{}", 1, true), "the first map is retired")
      """)
    #expect(outcome.error == nil && outcome.failures.isEmpty, "\(outcome.failures) \(outcome.error ?? "")")
  }

  @Test func badMapOptionsNameTheField() throws {
    for (options, message) in [
      ("{ zoom = 3 }", "waymark.map: unknown field 'zoom'"),
      ("{ policy = \"iso\" }", "policy \"iso\" is not one of ios, android, web; did you mean ios?"),
      ("{ camera = { zoom = 3 } }", "waymark.map camera.target is required"),
      ("{ size = { width = -1, height = 10 } }", "waymark.map: size.width: -1 is negative"),
      ("{ plugins = \"plugins\" }", "plugins"),
    ] {
      let (outcome, _) = try run("local map = waymark.map\(options)\n")
      let error = try #require(outcome.error, "\(options)")
      #expect(error.contains("demo.lua:1:"), "\(error)")
      #expect(error.contains(message), "\(error)")
    }
  }

  @Test func pluginLoadProblemsAreReportedAndTheRunGoesOn() throws {
    let (outcome, _) = try run(
      "local map = waymark.map{ plugins = { \"plugins\" } }\nexpect(true)\n",
      plugins: ["broken.lua": "return {\n"])
    #expect(outcome.error == nil)
    #expect(outcome.problems.count == 1 && outcome.problems[0].contains("broken.lua:2:"), "\(outcome.problems)")
  }

  @Test("R29, R25: Padding and gesture settings are read and assigned")
  func paddingAndGestureSettingsAreReadAndAssigned() throws {
    // R29 padding and R25 gesture flags from Lua.
    let (outcome, _) = try run(
      """
      local map = waymark.map{ padding = 20 }
      expect_eq(map.padding.top, 20)
      map.padding = { top = 100 }
      expect_eq(map.padding.top, 100)
      expect_eq(map.padding.left, 0)
      map.gestures = { rotate = false }
      expect_eq(map.gestures.rotate, false)
      expect_eq(map.gestures.zoom, true)
      map:rotate(30)
      map:settle()
      expect_eq(map.camera.bearing, 0, "a disabled gesture does nothing")
      local ok, e = pcall(function() map.gestures = { rotat = false } end)
      expect(not ok and e:find("did you mean rotate"), e)
      """)
    #expect(outcome.error == nil && outcome.failures.isEmpty, "\(outcome.failures) \(outcome.error ?? "")")
    #expect(outcome.records.contains { $0.event == .warning && $0.message?.contains("rotate") == true })
  }

  @Test func printingMapObjectsIsTheSameOnEveryRun() throws {
    // No addresses in the trace: it must be byte for byte the same everywhere.
    let (outcome, _) = try run(
      """
      local map = waymark.map{}
      local m = map:add_marker{ id = "a", position = { lat = 0, lng = 0 } }
      local o = map:add_overlay{ kind = "circle", center = { lat = 0, lng = 0 }, radius = 1 }
      print(m, o, map, map:after(1, function() end))
      """)
    #expect(outcome.records.last?.message == "marker \"a\"\toverlay \"overlay-1\"\tmap\ttimer")
  }

  @Test func sharedUserDataHasAQuota() throws {
    // The copies other states read live outside every memory cap: 64 MiB for the script.
    let (outcome, _) = try run(
      """
      local map = waymark.map{}
      local m = map:add_marker{ id = "a", position = { lat = 0, lng = 0 } }
      local s = string.rep("x", 1 << 20)
      local many = {}
      for i = 1, 65 do many[i] = s end
      local ok, e = pcall(function() m.user_data = many end)
      expect(not ok and e:find("shares at most 64 MiB of user_data"), e)
      expect_eq(m.user_data, nil, "nothing was assigned")
      m.user_data = { s, s }
      expect_eq(#m.user_data[1], 1 << 20)
      """)
    #expect(outcome.error == nil && outcome.failures.isEmpty, "\(outcome.failures) \(outcome.error ?? "")")
  }

  @Test func requireDoesNotFollowLinksOutOfThePluginFolder() throws {
    let outside = try PluginFolder(["secret.lua": "return 'outside'"])
    let (outcome, folder) = try run(
      """
      local map = waymark.map{ plugins = { "plugins" } }
      """,
      plugins: ["probe.lua": "local ok, e = pcall(require, 'escape.secret')\nprint(e)\nreturn {}"])
    _ = outcome
    try FileManager.default.createSymbolicLink(atPath: folder.file("plugins/escape"), withDestinationPath: outside.path)
    let again = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    let message = try #require(again.records.first { $0.event == .log }?.message)
    #expect(
      message
        == "module 'escape.secret': \(folder.path)/plugins/escape/secret.lua is a symbolic link that leads outside "
        + "\(folder.path)/plugins; it is not read")
  }

  @Test func finalizersNeverRunInScriptsEither() throws {
    let (outcome, _) = try run(
      """
      local map = waymark.map{}
      local trap = setmetatable({}, { __gc = function() while true do end end })
      map:log(type(getmetatable(trap).__gc))
      trap = nil
      collectgarbage()
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
  }

  @Test func timeInScriptsIsVirtual() throws {
    let (outcome, _) = try run(
      """
      local map = waymark.map{}
      local start = os.time()
      map:advance(3600)
      expect_eq(os.time() - start, 3600, "an hour of virtual time")
      expect_eq(os.clock(), 3600)
      """)
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  @Test func anErrorInAScriptCallbackStopsTheRunButNotTheMap() throws {
    let (outcome, _) = try run(
      """
      local map = waymark.map{}
      map:after(1, function() error("boom") end)
      map:settle()
      print("still here")
      """)
    #expect(outcome.error?.contains("demo.lua:2: boom") == true, "\(outcome.error ?? "")")
    #expect(outcome.records.contains { $0.event == .scriptError })
    #expect(outcome.records.last?.message == "still here")
  }

  @Test func aFailedExpectationKeepsAtMostALogRecordOfItsMessage() throws {
    let (outcome, _) = try run(
      """
      local huge = setmetatable({}, { __tostring = function() return string.rep("z", 1 << 20) end })
      expect(false, huge)
      """)
    let message = try #require(outcome.failures.first)
    #expect(message.utf8.count <= MapView.longestLogMessage)
    #expect(message.split(separator: "/").last?.hasPrefix("demo.lua:2: zzz") == true)
    #expect(message.hasSuffix(" more bytes)"))
  }

  @Test func anExpectationCalledThroughPcallNamesTheScriptLine() throws {
    let (outcome, _) = try run(
      """
      local ok = pcall(expect_eq, 1, 2)
      pcall(expect, false, "plain")
      """)
    let failures = outcome.failures.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
    #expect(failures == ["demo.lua:1: expected 2, got 1", "demo.lua:2: plain"])
  }

  @Test func mapLogTakesAsManyArgumentsAsLuaCanPass() throws {
    // Each argument is copied once more on the Lua stack to be joined: past the 20 free slots
    // a C function is promised, that wrote beyond the stack and corrupted the heap.
    let (outcome, _) = try run(
      """
      local map = waymark.map{}
      local s = string.rep("x", 1000)
      print(s)
      local many = {}
      for i = 1, 60 do many[i] = s end
      map:log(table.unpack(many))
      map:log("after")
      """)
    #expect(outcome.error == nil, "\(String(describing: outcome.error))")
    let logs = outcome.records.filter { $0.event == .log }.compactMap(\.message)
    let line = String(repeating: "x", count: 1000)
    #expect(logs == [line, Array(repeating: line, count: 60).joined(separator: "\t"), "after"])
  }
}

extension ScriptOptions {
  /// The defaults with the tests' plugin budget (see `PluginHost.Configuration.forTests`).
  static var forTests: ScriptOptions {
    var options = ScriptOptions()
    options.plugins = .forTests
    return options
  }
}

@Suite struct LuaLSDefinitionsTests {
  @Test func everyInstalledMemberAndHandlerAppearsInTheDefinitions() throws {
    // The definitions come from the registry; prove that what a live state has installed
    // (the bridge's metatables, the script globals) is all in them.
    let definitions = LuaLSDefinitions.generate() + LuaLSDefinitions.generateScripts()
    let state = try LuaState(libraries: [.base])
    let bridge = try LuaMapBridge.install(in: state)
    for (owner, members) in bridge.installedMembers {
      #expect(definitions.contains("---@class \(owner)\n"), "\(owner)")
      for name in members {
        let declared = definitions.contains("function \(owner):\(name)(") || definitions.contains("---@field \(name) ")
        #expect(declared, "\(owner).\(name) is installed but not in the definitions")
      }
    }
    #expect(bridge.installedMembers.values.map(\.count).reduce(0, +) == LuaAPI.entries.count)
    for callback in DelegateCallback.allCases {
      #expect(definitions.contains("---@field \(callback.name) (fun(map: Map"), "\(callback.name)")
    }
    for lifecycle in ["setup", "teardown", "on_reload", "save_state"] {
      #expect(definitions.contains("---@field \(lifecycle) (fun("), "\(lifecycle)")
    }
    let folder = try PluginFolder([
      "probe.lua":
        "local names = {}\nfor k in pairs(waymark) do names[#names + 1] = 'waymark.' .. k end\nfor _, k in ipairs{ 'expect', 'expect_eq', 'expect_near' } do if _ENV[k] then names[#names + 1] = k end end\ntable.sort(names)\nprint(table.concat(names, ' '))\n"
    ])
    let outcome = ScriptRunner.run(folder.file("probe.lua"))
    let globals = try #require(outcome.records.first?.message).split(separator: " ").map(String.init)
    #expect(
      globals == [
        "expect", "expect_eq", "expect_near", "waymark.check_invariants", "waymark.current_map", "waymark.data",
        "waymark.invariant", "waymark.json", "waymark.map", "waymark.plugin_errors", "waymark.version",
      ])
    #expect(definitions.contains("waymark.version = "))
    let pluginDefinitions = LuaLSDefinitions.generate()
    for library in ["data", "json"] {
      #expect(pluginDefinitions.contains("waymark.\(library) = {}"), "\(library)")
    }
    for signature in ScriptSignatures.data {
      #expect(pluginDefinitions.contains("function \(signature.name)("), "\(signature.name)")
    }
    for name in globals where !["waymark.version", "waymark.data", "waymark.json"].contains(name) {
      #expect(definitions.contains("function \(name)("), "\(name)")
    }
  }
}
