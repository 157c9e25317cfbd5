import Testing

/// Where Lua 5.4.4's own test files (run by scripts/lua-suite.sh) found the sandbox answering
/// differently from Lua, each case run in the sandbox and in `lua5.4` and compared line by
/// line (docs/plugins.md, "Sandbox": the library is Lua's but for the documented removals).
@Suite struct ReferenceSuiteTests {
  /// utf8.lua, coroutine.lua and most others begin with `local utf8 = require'utf8'` or
  /// `require "debug"`: Lua answers a library's name from package.loaded.
  @Test func requireOfALibrarysNameAnswersTheLibrary() throws {
    try ReferenceLua.expectSame(
      """
      for _, name in ipairs({ "string", "table", "math", "utf8", "coroutine", "os", "_G" }) do
        print(name, require(name) == _G[name])
      end
      print("debug", type(require("debug").traceback))
      local saved = string
      string = nil
      print("after the global changed", require("string") == saved)
      string = saved
      case("not a string", require, {})
      """, atLeast: 10)
  }

  /// gc.lua and locals.lua stop, restart and tune the collector: harmless to a plugin's own
  /// state (the memory cap and the budget hold whatever it says), so they are Lua's.
  @Test func theCollectorCanBeStoppedRestartedAndTuned() throws {
    try ReferenceLua.expectSame(
      """
      case("isrunning", collectgarbage, "isrunning")
      case("stop", collectgarbage, "stop")
      case("stopped", collectgarbage, "isrunning")
      local t = {}
      for i = 1, 1000 do t[i] = {} end
      t = nil
      case("a step while stopped", collectgarbage, "step", 100000)
      case("restart", collectgarbage, "restart")
      case("running", collectgarbage, "isrunning")
      case("setpause", collectgarbage, "setpause", 150)
      case("setpause again", collectgarbage, "setpause", 200)
      case("setstepmul", collectgarbage, "setstepmul", 300)
      case("setstepmul again", collectgarbage, "setstepmul", 100)
      case("setpause default", collectgarbage, "setpause")
      case("setpause back", collectgarbage, "setpause", 200)
      case("incremental", collectgarbage, "incremental")
      case("incremental with parameters", collectgarbage, "incremental", 200, 100, 13)
      case("setpause not a number", collectgarbage, "setpause", "x")
      case("incremental fraction", collectgarbage, "incremental", 1.5)
      """, atLeast: 16)
  }

  /// strings.lua: a `__tostring` that returns something else than a string makes `tostring`
  /// raise; its errors pass through; a number it returns is converted.
  @Test func tostringRaisesWhatItsMetamethodGetsWrong() throws {
    try ReferenceLua.expectSame(
      """
      case("a table", tostring, setmetatable({}, { __tostring = function() return {} end }))
      case("nil", tostring, setmetatable({}, { __tostring = function() end }))
      case("a number", tostring, setmetatable({}, { __tostring = function() return 42 end }))
      case("a float", tostring, setmetatable({}, { __tostring = function() return 1.5 end }))
      case("a string", tostring, setmetatable({}, { __tostring = function(t) return "T" .. #t end }))
      case("raises", tostring, setmetatable({}, { __tostring = function() error("inside") end }))
      case("at a line", function()
        local text = tostring(setmetatable({}, { __tostring = function() return true end }))
        return text
      end)
      """, atLeast: 7)
  }
}
