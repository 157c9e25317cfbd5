import Foundation
import Testing

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// What pure-Lua libraries read as they load, in its safe form: `package`, `io` that writes
/// to the trace, a read-only `debug.getinfo`; and Debian's libraries loaded through a root
/// of `/usr/share/lua/5.4` (docs/plugins.md, "Helper modules").
@Suite struct LoadTimeLibrariesTests {
  /// Debian's tree of Lua 5.4 modules (links into the 5.1 tree), and the 5.1 tree where
  /// Debian 12 installs lua-inspect alone.
  static let debianRoots = ["/usr/share/lua/5.4", "/usr/share/lua/5.1"]

  @Test func penlightDkjsonAndInspectLoadFromDebiansTreeUnmodified() throws {
    let folder = try RequireTests.project([
      "main.lua": """
      local json = require("dkjson")
      local text = json.encode({ name = "Hosier Lane", open = true, hours = { 7, 17 } }, { keyorder = { "name", "open", "hours" } })
      expect_eq(text, '{"name":"Hosier Lane","open":true,"hours":[7,17]}')
      local decoded = json.decode('{"a":[1,2,{"b":null}],"c":"d"}')
      expect_eq(decoded.a[2], 2)
      expect_eq(decoded.c, "d")

      local pretty = require("pl.pretty")
      expect_eq(pretty.write({ 1, 2, x = "y" }, ""), '{1,2,x="y"}')
      local List = require("pl.List")
      local list = List({ 3, 1, 2 }):sort()
      expect_eq(tostring(list), "{1,2,3}")
      expect_eq(list:map(function(x) return x * 10 end):concat(","), "10,20,30")
      local stringx = require("pl.stringx")
      expect_eq(stringx.strip("  shop  "), "shop")
      expect_eq(#stringx.split("a,b,c", ","), 3)
      expect(stringx.startswith("Flinders", "Fl"))
      local tablex = require("pl.tablex")
      expect(tablex.deepcompare({ a = { 1 } }, { a = { 1 } }))
      expect_eq(tablex.size({ a = 1, b = 2 }), 2)

      local inspect = require("inspect")
      expect_eq(inspect({ 1, a = "b" }), '{ 1,\\n  a = "b"\\n}')
      """
    ])
    let outcome = RequireTests.run(folder, roots: Self.debianRoots)
    RequireTests.expectClean(outcome)
  }

  @Test func aPluginLoadsDebiansLibrariesToo() throws {
    var configuration = PluginHost.Configuration.forTests
    configuration.moduleRoots = Self.debianRoots.map { URL(fileURLWithPath: $0) }
    let f = try PluginFixture(
      [
        "shops.lua": """
        local json = require("dkjson")
        local List = require("pl.List")
        return {
          did_tap_marker = function(map, marker)
            print(json.encode({ id = marker.id }), tostring(List({ 2, 1 }):sort()))
            return true
          end,
        }
        """
      ], configuration: configuration)
    #expect(f.host.diagnostics.isEmpty, "\(f.host.diagnostics)")
    try f.map.tap(f.melbourne)
    #expect(f.records(.log).compactMap(\.message) == ["{\"id\":\"melbourne\"}\t{1,2}"])
  }

  @Test func ioWritesToTheTraceAndItsFileFunctionsRefuse() throws {
    let folder = try RequireTests.project([
      "main.lua": """
      io.write("one ", 2, " ", 3.5, "\\n")
      io.stdout:write("out"):write("\\n")
      io.stderr:write("err\\n")
      expect(io.write("") == io.stdout, "io.write returns the standard output")
      expect_eq(io.type(io.stdout), "file")
      expect_eq(io.type({}), nil)
      expect_eq(tostring(io.stderr), "file (stderr)")
      for _, name in ipairs({ "open", "lines", "popen", "read", "tmpfile", "input", "close" }) do
        local ok, e = pcall(io[name], "/etc/passwd")
        expect(not ok and e:find("io%." .. name .. " is not available: plugins and scripts run in a sandbox without files"), e)
      end
      local ok, e = pcall(io.write, {})
      expect(e:find("main.lua:12: bad argument #1 to 'write' (string expected, got table)", 1, true), e)
      """
    ])
    let outcome = RequireTests.run(folder)
    RequireTests.expectClean(outcome)
    #expect(RequireTests.logs(outcome) == ["one 2 3.5", "out", "", "err"])
  }

  @Test func packageHasWhatLibrariesReadAndSearchpathStaysInTheRoots() throws {
    let folder = try RequireTests.project(["lib/shop.lua": "return {}"])
    try folder.write(
      "main.lua",
      """
      expect_eq(package.config:sub(1, 1), "/")
      expect(package.loaded.string == string and package.loaded._G == _G and package.loaded.package == package)
      expect(require("io") == io and require("debug") == debug)
      package.preload.virtual = function(name, extra) return { name = name, extra = extra } end
      local virtual, extra = require("virtual")
      expect_eq(virtual.name, "virtual")
      expect_eq(extra, ":preload:")
      expect_eq(package.searchpath("shop", package.path), "\(folder.path)/lib/shop.lua")
      local none, tried = package.searchpath("passwd", "/etc/?")
      expect_eq(none, nil, "a file outside the project and the roots is never answered")
      expect_eq(tried, "\\n\\tno file '/etc/passwd'")
      package.path = "/etc/?;" .. package.path
      local ok, e = pcall(require, "passwd")
      expect(e:find("not searched: '/etc/passwd' %(outside the project and its module roots%)"), e)
      local ok2, e2 = pcall(function() return package.loadlib("/usr/lib/x.so", "f") end)
      expect(e2:find("package.loadlib is not available"), e2)
      """)
    RequireTests.expectClean(RequireTests.run(folder, roots: ["lib"]))
  }

  @Test func getinfoReadsTheStackButNeverHandsOutTheHostsFunctions() throws {
    let folder = try RequireTests.project([:])
    try folder.write(
      "main.lua",
      """
      local function where()
        local info = debug.getinfo(2, "Sl")
        return info
      end
      local info = where()
      expect_eq(info.currentline, 5, "level 2 is the caller of the function asking")
      expect_eq(info.source, "@\(folder.path)/main.lua")
      expect(debug.getinfo(1, "f").func ~= nil, "the plugin's own function")
      expect_eq(debug.getinfo(print, "S").what, "C")
      local seen = setmetatable({}, { __tostring = function()
        for level = 2, 10 do
          local frame = debug.getinfo(level, "Sf")
          if frame and frame.source:sub(1, 1) == "=" then expect_eq(frame.func, nil, frame.source) end
        end
        return "seen"
      end })
      expect_eq(tostring(seen), "seen")
      expect_eq(rawget(debug, "getlocal"), nil)
      expect_eq(getmetatable(""), false, "the string metatable stays protected")
      local co = coroutine.create(function() coroutine.yield() end)
      coroutine.resume(co)
      expect_eq(debug.getinfo(co, 1, "S").what, "Lua")
      -- A bad argument is Lua's own message, raised at the caller's line.
      local _, bad = pcall(function() local i = debug.getinfo(1, "f>") return i end)
      expect_eq(bad, "\(folder.path)/main.lua:24: bad argument #2 to 'debug.getinfo' (invalid option)")
      expect_eq(select(2, pcall(debug.getinfo, {}, "S")), "bad argument #1 to 'debug.getinfo' (number expected, got table)")
      """)
    RequireTests.expectClean(RequireTests.run(folder))
  }

  @Test func checkFindsModulesInTheRootsAndListsThemWhenItCannot() throws {
    let folder = try RequireTests.project(["lib/shop.lua": "return {}"])
    let source: LuaSource =
      "local shop = require('shop')\nlocal json = require('dkjson')\nlocal x = require('nothere')\n"
    let diagnostics = try #require(
      PluginLint.check(
        source, file: folder.file("main.lua"), kind: .module,
        moduleRoots: [URL(fileURLWithPath: folder.file("lib")), URL(fileURLWithPath: "/usr/share/lua/5.4")],
        project: URL(fileURLWithPath: folder.path)))
    #expect(diagnostics.map(\.line) == [3])
    #expect(
      diagnostics.first?.message
        == "require(\"nothere\"): no file \(folder.path)/nothere.lua, \(folder.path)/nothere/init.lua, "
        + "\(folder.path)/lib/nothere.lua, \(folder.path)/lib/nothere/init.lua, /usr/share/lua/5.4/nothere.lua, "
        + "/usr/share/lua/5.4/nothere/init.lua (module roots: \(folder.path)/lib, /usr/share/lua/5.4)")
  }
}
