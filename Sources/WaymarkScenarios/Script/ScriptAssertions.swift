import Foundation
import LuaKit
import WaymarkScripting

/// luassert in test files (docs/testing.md, "luassert"): `assert`, `spy`, `stub`, `mock` and
/// `match` are the modules of the system's luassert (Debian's `lua-luassert`, with `lua-say`),
/// loaded through the test file's own `require` the first time one of these globals is read,
/// so a test file that never uses them pays nothing; `require("luassert")` and
/// `require("busted")` answer them too (and `require("busted.runner")()` does nothing). A
/// failed assertion is a failure of the case, as in busted: luassert's `error` is bound to one
/// that raises a failure object, and the session asks ``takeFailure`` whether the error it
/// caught was that object.
enum ScriptAssertions {
  /// The folder that holds `luassert/init.lua` and `say/init.lua` (a system tree of pure-Lua
  /// modules), nil when luassert is not installed.
  static let root: URL? = {
    let candidates = ["/usr/local/share/lua/5.4", "/usr/share/lua/5.4"]
    return candidates.first { folder in
      ["luassert/init.lua", "say/init.lua"].allSatisfy {
        FileManager.default.isReadableFile(atPath: PluginFiles.join(folder, $0))
      }
    }.map { URL(fileURLWithPath: $0) }
  }()

  /// Installs the lazy globals and `debug`'s stand-ins into the environment at
  /// `environment` (``prelude``). Returns the table whose `take_failure()` answers the
  /// message of the failure object raised since it was last asked, or nil.
  static func install(into environment: Int32, on stack: LuaStack) throws(LuaError) -> LuaRef {
    let environment = stack.absoluteIndex(environment)
    try stack.load(prelude, chunkName: "=(luassert)")
    stack.pushValue(at: environment)
    stack.push(root == nil ? "luassert is not installed (Debian: apt-get install lua-luassert lua-say)" : "")
    try stack.call(arguments: 2, results: 1)
    return stack.ref()
  }

  /// Trusted Lua run with the real globals, given the test file's environment.
  static let prelude = #"""
    local env, missing = ...
    local getmetatable, setmetatable, rawset, rawget, type, pcall, error, tostring = getmetatable, setmetatable, rawset, rawget, type, pcall, error, tostring
    local pairs, ipairs = pairs, ipairs
    local getupvalue, setupvalue, upvaluejoin = debug.getupvalue, debug.setupvalue, debug.upvaluejoin
    local env_setmetatable = env.setmetatable

    -- What luassert reads of debug, in a safe form: the sandbox's getmetatable (a table's
    -- own metatable past its __metatable field, which middleclass's suite reads through a
    -- class's __metatable); setmetatable for tables too (luassert's deep copies), and for
    -- strings as the sandbox's (the string metatable taken away and given back).
    local sandbox_setmetatable = env.debug.setmetatable
    env.debug.setmetatable = function(value, meta)
      if type(value) == "string" then return sandbox_setmetatable(value, meta) end
      if type(value) ~= "table" then
        error("debug.setmetatable: a test file sets the metatable of a table only, not of a " .. type(value), 2)
      end
      return env_setmetatable(value, meta)
    end

    -- busted's `arg`, the runner's command line as Lua's standalone interpreter gives it:
    -- here the runner alone, the same on every machine (lua_cliargs's suite counts it).
    env.arg = { [0] = "waymark" }

    -- busted's failure: an object whose text is the message at the test's line.
    local failure_meta = { __tostring = function(e) return tostring(e.message) end }
    local raised
    local function fail(message, level)
      level = type(level) == "number" and level or 1
      local _, located = pcall(error, message, level + 2)
      local failure = setmetatable({ message = located }, failure_meta)
      raised = failure
      error(failure, 0)
    end

    -- busted's bindfenv: the function's globals are a table that reads through to the
    -- environment, with `name` = `value`.
    local function bind(fn, name, value)
      for up = 1, 255 do
        local upname = getupvalue(fn, up)
        if upname == nil then return end
        if upname == "_ENV" then
          local own = setmetatable({ [name] = value }, { __index = env })
          upvaluejoin(fn, up, function() return own end, 1)
          setupvalue(fn, up, own)
          return
        end
      end
    end

    local modules
    local names = { assert = "luassert", spy = "luassert.spy", stub = "luassert.stub", mock = "luassert.mock",
      match = "luassert.match" }
    local package = env.package
    -- require("luassert") is luassert with busted's failures, however it is reached first:
    -- its file is found as require finds it, then bound before it is answered.
    local function luassert()
      if not modules then
        local loader, file = package.searchers[2]("luassert")
        if type(loader) ~= "function" then error("module 'luassert' not found:" .. tostring(loader), 3) end
        local module = loader("luassert", file)
        bind(getmetatable(module).__call, "error", fail)
        bind(getmetatable(module.is_true).__call, "error", fail)
        modules = { assert = module }
        for global, name in pairs(names) do
          if global ~= "assert" then modules[global] = env.require(name) end
        end
      end
      return modules.assert
    end
    package.preload.luassert = function() return luassert() end

    -- require("busted"): its test functions, luassert's, and fail.
    local busted_names = { "describe", "context", "insulate", "expose", "it", "spec", "test", "pending",
      "before_each", "after_each", "setup", "teardown", "strict_setup", "strict_teardown", "lazy_setup",
      "lazy_teardown", "finally" }
    package.preload.busted = function()
      luassert()
      local busted = { fail = function(message, level) fail(message, (level or 1) + 1) end }
      for _, name in ipairs(busted_names) do busted[name] = rawget(env, name) end
      for global in pairs(names) do busted[global] = modules[global] end
      return busted
    end

    -- require("busted.runner")(), at the top of a spec meant to run under plain lua too: the
    -- runner is already running, so, as busted's own runner does then, it does nothing.
    package.preload["busted.runner"] = function() return function() return function() end end end

    local function load(name)
      if missing ~= "" then error(name .. ": " .. missing, 3) end
      if not modules then env.require("luassert") end  -- from the test file's line
      if not modules then luassert() end  -- package.loaded.luassert was set by hand
      local module = modules[name]
      rawset(env, name, module)
      return module
    end

    rawset(env, "assert", nil)
    local meta = getmetatable(env)
    local refuse = meta.__index
    meta.__index = function(t, key)
      if names[key] then return load(key) end
      return refuse(t, key)
    end

    return {
      take_failure = function()
        local failure = raised
        raised = nil
        return failure and tostring(failure.message)
      end,
    }
    """#
}
