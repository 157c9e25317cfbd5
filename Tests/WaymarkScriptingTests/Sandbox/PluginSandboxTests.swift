import Testing
import WaymarkCore

@testable import WaymarkScripting

/// The sandbox: what a plugin can and cannot reach, and that runs are deterministic.
@Suite struct PluginSandboxTests {
  @Test func onlyTheAllowedGlobalsExist() throws {
    let (logs, errors, _) = try MarkerBridgeTests.run(
      """
      local names = {}
      for k in pairs(_G) do names[#names + 1] = k end
      table.sort(names)
      print(table.concat(names, " "))
      local os_names = {}
      for k in pairs(os) do os_names[#os_names + 1] = k end
      table.sort(os_names)
      print(table.concat(os_names, " "), debug.traceback ~= nil, rawget(debug, "sethook"))
      local debug_names = {}
      for k in pairs(debug) do debug_names[#debug_names + 1] = k end
      table.sort(debug_names)
      print(table.concat(debug_names, " "))
      """)
    #expect(errors.isEmpty)
    #expect(
      logs[0]
        == "_G _VERSION assert collectgarbage coroutine debug dofile error getmetatable inspect io ipairs load loadfile math next os package pairs pcall print rawequal rawget rawlen rawset require select setmetatable string table tonumber tostring type utf8 waymark xpcall"
    )
    #expect(logs[1] == "clock date difftime time\ttrue\tnil")
    #expect(logs[2] == "gethook getinfo getmetatable setmetatable traceback")
  }

  /// Reading one is no error (a library may keep it in a local as it loads); calling it is,
  /// at the caller's line.
  @Test func callingWhatTheSandboxLeavesOutSaysSoAtTheCallersLine() throws {
    let (logs, errors, _) = try MarkerBridgeTests.run(
      """
      local ok, loadlib = pcall(function() return package.loadlib end)
      print(ok, type(loadlib))
      local f = io.open("places.csv")
      """)
    #expect(logs.first == "true\tfunction")
    #expect(
      errors.first?.hasSuffix(
        ":5: io.open is not available: plugins and scripts run in a sandbox without files; io has only write, stdout and stderr, which print to the trace"
      ) == true, "\(errors)")
    let (defined, fine, _) = try MarkerBridgeTests.run("print(undefined_name == nil, os.clock ~= nil)")
    #expect(fine.isEmpty)
    #expect(defined == ["true\ttrue"])
  }

  @Test func timeIsVirtualAndRandomIsSeededByThePluginName() throws {
    let source =
      "return { setup = function(map) print(os.time(), os.clock(), os.date('!%Y-%m-%d'), math.random(1000000)) end }"
    let first = try PluginFixture(["r.lua": source])
    let second = try PluginFixture(["r.lua": source])
    #expect(first.logs == second.logs)
    #expect(first.logs.first?.hasPrefix("\(LocalTime.defaultEpoch)\t0.0\t2025-01-01\t") == true)
    let other = try PluginFixture(["other.lua": source])
    #expect(other.logs != first.logs)  // another name, another sequence
  }

  @Test func globalsAreNotSharedBetweenPlugins() throws {
    let f = try PluginFixture([
      "a.lua": "shared = 'from a'; string.rep = nil; return {}",
      "b.lua": "return { setup = function() print(shared, string.rep('b', 2)) end }",
    ])
    #expect(f.logs == ["nil\tbb"])
  }

  @Test func loadIsTextOnlyAndDefaultsToThePluginEnvironment() throws {
    let (logs, errors, _) = try MarkerBridgeTests.run(
      """
      secret = 42
      print(load("return secret")())
      print(load("\\27Lua"))
      print(collectgarbage("count") > 0)
      """)
    #expect(errors.isEmpty)
    #expect(logs[0] == "42")
    #expect(logs[1].contains("attempt to load a binary chunk (only text chunks are allowed)"))
    #expect(logs[2] == "true")
  }

  /// Two bugs of Lua 5.4.4 sit behind switches a plugin cannot reach: the collector's
  /// generational mode ("GC not setting a proper target for next cycle after a full
  /// collection in generational mode") and binary chunks ("Loading a corrupted binary file
  /// can segfault"). The incremental mode a plugin's collector starts in stays available.
  @Test func theCollectorModeAndBinaryChunksAreOutOfReach() throws {
    let (logs, errors, _) = try MarkerBridgeTests.run(
      """
      print(pcall(collectgarbage, "generational"))
      print(pcall(collectgarbage, "incremental"))
      print(load(string.dump(function() end)))
      print(pcall(load, "\\27Lua\\x54\\0", "x", "b"))
      print(load("\\27Lua\\x54\\0", "x", "t"))
      """)
    #expect(errors.isEmpty)
    #expect(logs[0].contains("collectgarbage('generational') is not allowed in a plugin"))
    #expect(logs[1] == "true\tincremental")
    // Whatever the mode: with "t", in Lua's words.
    #expect(logs[2] == "nil\tattempt to load a binary chunk (only text chunks are allowed)")
    #expect(logs[3] == "true\tnil\tattempt to load a binary chunk (only text chunks are allowed)")
    #expect(logs[4] == "nil\tattempt to load a binary chunk (mode is 't')")
  }

  /// `require("debug")` answers the library at run time, so `waymark check` does not call
  /// it a missing file; a module that is missing still is.
  /// Code written for several Lua versions tests for Lua 5.1's names (kikito's libraries and
  /// their busted suites: `local unpack = unpack or table.unpack`): as in any Lua 5.4 they
  /// read as nil, and `check` reports a use of one but not a test of it.
  @Test func lua51NamesReadAsNilAndCheckReportsOnlyTheirUse() throws {
    let (logs, errors, _) = try MarkerBridgeTests.run(
      """
      local unpack = unpack or table.unpack
      print(select("#", unpack({ 1, 2 })), table.getn == nil, _G.loadstring == nil)
      """)
    #expect(errors.isEmpty, "\(errors)")
    #expect(logs == ["2\ttrue\ttrue"])
    let (_, called, _) = try MarkerBridgeTests.run("local a = unpack({ 1 })")
    #expect(called.first?.contains("attempt to call a nil value (global 'unpack')") == true, "\(called)")
    let source: LuaSource = """
      local unpack = unpack or table.unpack
      if math.pow then print(math.pow(2, 3)) end
      local first = unpack({ 1 })
      local n = table.getn({})
      return { setup = function() print(first, n) end }

      """
    let diagnostics = try #require(PluginLint.check(source, file: "/nowhere/p.lua", kind: .plugin))
    #expect(
      diagnostics.map { "\($0.line ?? 0): \($0.message)" } == [
        "2: math.pow is Lua 5.1: in Lua 5.4 write x ^ y",
        "4: table.getn is Lua 5.1: in Lua 5.4 write #t",
      ], "the tests on lines 1 and 2 are not reported, the uses are")
  }

  @Test func checkKnowsTheLibrariesRequireAnswers() throws {
    let source: LuaSource =
      "local debug = require('debug')\nlocal utf8 = require 'utf8'\nlocal m = require('missing')\nreturn {}\n"
    let diagnostics = try #require(PluginLint.check(source, file: "/nowhere/p.lua", kind: .plugin))
    #expect(diagnostics.map(\.line) == [3])
    #expect(diagnostics.first?.message.contains("require(\"missing\"): no file") == true)
  }

  /// Without module roots, `require` finds modules beside the requiring file only.
  @Test func requireOnlyLoadsModulesNextToThePlugin() throws {
    let folder = try PluginFolder()
    try folder.write("helpers.lua", "return { twice = function(x) return 2 * x end }")
    let source = """
      local h = require("helpers")
      print(h.twice(21), require("helpers") == h)
      print(pcall(require, "../etc/passwd"))
      print(pcall(require, "missing"))
      return {}
      """
    try folder.write("main.lua", source)
    let f = try PluginFixture([:], plus: [folder.file("main.lua")])  // helpers.lua is not a plugin here
    #expect(f.host.plugins.map(\.name) == ["main"])
    let logs = f.records(.log).compactMap(\.message)
    #expect(logs[0] == "42\ttrue")
    #expect(
      logs[1].hasPrefix("false\tmodule '../etc/passwd' not found:")
        && logs[1].contains("no file '\(folder.path)/etc/passwd.lua'"),
      "a name's parts are searched below the plugin's folder, never above it: \(logs[1])")
    #expect(
      logs[2]
        == "false\tmodule 'missing' not found:\n\tno field package.preload['missing']\n\tno file '\(folder.path)/missing.lua'"
        + "\n\tno file '\(folder.path)/missing/init.lua'")
  }
}
