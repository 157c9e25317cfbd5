import Foundation
import LuaKit
import WaymarkScripting

/// luassert in test files (docs/testing.md, "luassert"): `assert`, `spy`, `stub`, `mock` and
/// `match` are the modules of the system's luassert (Debian's `lua-luassert`, with `lua-say`),
/// loaded through the test file's own `require` the first time one of these globals is read,
/// so a test file that never uses them pays nothing. A failed assertion is a failure of the
/// case, as in busted: luassert's `error` is bound to one that raises a failure object, and
/// the session asks ``takeFailure`` whether the error it caught was that object.
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
    local getmetatable, setmetatable, rawset, type, pcall, error, tostring = getmetatable, setmetatable, rawset, type, pcall, error, tostring
    local getupvalue, setupvalue, upvaluejoin = debug.getupvalue, debug.setupvalue, debug.upvaluejoin
    local env_getmetatable, env_setmetatable = env.getmetatable, env.setmetatable

    -- What luassert reads of debug, in a safe form: getmetatable as the sandbox's (a
    -- protected metatable stays hidden), setmetatable for tables alone (its deep copies).
    env.debug.getmetatable = function(value) return env_getmetatable(value) end
    env.debug.setmetatable = function(value, meta)
      if type(value) ~= "table" then
        error("debug.setmetatable: a test file sets the metatable of a table only, not of a " .. type(value), 2)
      end
      return env_setmetatable(value, meta)
    end

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
    local function load(name)
      if missing ~= "" then error(name .. ": " .. missing, 3) end
      if not modules then
        local require = env.require
        local luassert = require("luassert")
        bind(getmetatable(luassert).__call, "error", fail)
        bind(getmetatable(luassert.is_true).__call, "error", fail)
        modules = {}
        for global, module in pairs(names) do modules[global] = require(module) end
      end
      rawset(env, name, modules[name])
      return modules[name]
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
