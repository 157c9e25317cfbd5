import Foundation
import Testing

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// What the sandbox leaves out reads as a function that refuses when called, so that
/// libraries keeping one in a local as they load (Penlight's `local getenv = os.getenv`)
/// load, and fail only where they use it, with a message naming it (docs/plugins.md,
/// "Helper modules"). Debian's Penlight then loads whole, `pl.pretty.read` included.
@Suite struct RefusedFunctionsTests {
  static let osMessage =
    "os.getenv is not available: plugins and scripts run in a sandbox without files or programs; "
    + "os has only clock, time, date and difftime, on the map's virtual clock"

  @Test func aRefusedFunctionReadsAsAFunctionThatSaysWhyWhenCalled() throws {
    let folder = try RequireTests.project([
      "main.lua": """
      local getenv = os.getenv
      expect_eq(type(getenv), "function")
      expect(os.getenv == getenv, "the same function at every read")
      local ok, e = pcall(function() local home = getenv("HOME") return home end)
      expect(not ok and e:sub(-#[[main.lua:4: \(Self.osMessage)]]) == [[main.lua:4: \(Self.osMessage)]], e)
      local _, hook = pcall(function() debug.sethook() end)
      expect(hook:find("main.lua:6: debug.sethook is not available in the sandbox", 1, true), hook)
      local _, loadlib = pcall(function() local f = package.loadlib("/usr/lib/x.so", "f") return f end)
      expect(loadlib:find("main.lua:8: package.loadlib is not available: the sandbox loads Lua source only", 1, true), loadlib)
      local _, open = pcall(function() local f = io.open("/etc/passwd") return f end)
      expect(open:find("main.lua:10: io.open is not available", 1, true), open)
      expect_eq(rawget(os, "getenv"), nil, "nothing is added to the library tables")
      expect_eq(os.no_such_name, nil, "a name the sandbox never had reads as nil")
      """
    ])
    RequireTests.expectClean(RequireTests.run(folder))
  }

  @Test func debugSeesNoHookOfItsOwnAndSetsOnlyTheStringMetatable() throws {
    let folder = try RequireTests.project([
      "main.lua": """
      expect_eq(debug.gethook(), "external hook", "the host's budget is a hook set from C")
      expect_eq(debug.setmetatable("", nil), "")
      local ok = pcall(function() return ("x"):upper() end)
      expect_eq(ok, false, "strings have no methods while the metatable is away")
      expect_eq(debug.setmetatable("", false), "")
      expect_eq(("x"):upper(), "X", "given back")
      expect_eq(getmetatable(""), false, "and still protected")
      local _, e = pcall(function() debug.setmetatable({}, {}) end)
      expect(e:find("main.lua:8: debug.setmetatable is not available in the sandbox but to take the string metatable away", 1, true), e)
      local _, e2 = pcall(function() debug.setmetatable("", { __index = {} }) end)
      expect(e2:find("debug.setmetatable is not available", 1, true), e2)
      local meta = { __metatable = "locked" }
      local t = setmetatable({}, meta)
      expect_eq(getmetatable(t), "locked")
      expect(debug.getmetatable(t) == meta, "a table's own metatable past __metatable")
      expect_eq(debug.getmetatable(io.stdout), false, "what the host protects stays hidden")
      expect_eq(debug.getmetatable("x"), false)
      """
    ])
    RequireTests.expectClean(RequireTests.run(folder))
  }

  @Test func penlightsPrettyReadRoundTrips() throws {
    let folder = try RequireTests.project([
      "main.lua": """
      local pretty = require("pl.pretty")
      local t = pretty.read('{a=1,b={2,3},c="x"}')
      expect_eq(t.a, 1)
      expect_eq(t.b[2], 3)
      expect_eq(t.c, "x")
      expect_eq(pretty.write(pretty.read(pretty.write({ 1, 2, x = { y = "z" } }, "")), ""), '{1,2,x={y="z"}}')
      local none, why = pretty.read("{f=function() end}")
      expect_eq(none, nil)
      expect_eq(why, "cannot have functions in table definition")
      local _, e = pretty.read('{("x"):rep(3)}')
      expect_eq(e, [[[string "tbl"]:1: attempt to index a string value (constant 'x')]], "no string methods in the text read")
      expect_eq(("ab"):upper(), "AB", "the string metatable is back after the read")
      expect_eq(select(2, pretty.read("x")), "not a Lua table")
      """
    ])
    RequireTests.expectClean(RequireTests.run(folder, roots: LoadTimeLibrariesTests.debianRoots))
  }

  @Test func penlightsFileModulesLoadAndRefuseOnlyWhatTheyCall() throws {
    let folder = try RequireTests.project([
      "main.lua": """
      local path = require("pl.path")
      for _, name in ipairs({ "pl.dir", "pl.file", "pl.app", "pl.utils", "pl.compat", "pl.Date", "pl.types" }) do
        expect(require(name), name)
      end
      expect_eq(path.join("data", "stores.csv"), "data/stores.csv")
      expect_eq(select(2, path.splitext("stores.csv")), ".csv")
      expect_eq(path.basename("/a/b/c.lua"), "c.lua")
      expect_eq(path.normpath("a/./b/../c"), "a/c")
      local ok, e = pcall(path.expanduser, "~/x")
      expect(not ok and e:find("os.getenv is not available: plugins and scripts run in a sandbox", 1, true), e)
      local ok2, e2 = pcall(path.isdir, "/etc")
      expect(not ok2 and e2:find("lfs.attributes is not available: plugins and scripts run in a sandbox without files; lfs is a C library (", 1, true), e2)
      expect(e2:find("lfs.so), never loaded", 1, true), e2)
      local lfs = require("lfs")
      expect_eq(type(lfs.currentdir), "function")
      """
    ])
    RequireTests.expectClean(RequireTests.run(folder, roots: LoadTimeLibrariesTests.debianRoots))
  }

  @Test func aPluginUsesPenlightsPrettyAndPath() throws {
    var configuration = PluginHost.Configuration.forTests
    configuration.moduleRoots = LoadTimeLibrariesTests.debianRoots.map { URL(fileURLWithPath: $0) }
    let f = try PluginFixture(
      [
        "shops.lua": """
        local pretty = require("pl.pretty")
        local path = require("pl.path")
        return {
          did_tap_marker = function(map, marker)
            print(pretty.read("{ hours = { 7, 17 } }").hours[2], path.join("a", marker.id))
            return true
          end,
        }
        """
      ], configuration: configuration)
    #expect(f.host.diagnostics.isEmpty, "\(f.host.diagnostics)")
    try f.map.tap(f.melbourne)
    #expect(f.logs == ["17\ta/melbourne"])
  }
}
