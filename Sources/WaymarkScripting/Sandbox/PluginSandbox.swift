import LuaKit
import WaymarkCore

/// The environment a plugin runs in: one fresh Lua state per plugin (see docs/plugins.md,
/// "Sandbox"), with a globals table built by a trusted prelude.
///
/// - base library without `dofile`, `loadfile`; `load` accepts text only and defaults its
///   environment to the plugin's; `collectgarbage` only `"count"`, `"collect"`, `"step"`;
/// - copies of `string`, `table`, `math`, `utf8`, `coroutine` (the state is the plugin's
///   own, so changing them breaks only the plugin);
/// - `os` reduced to `clock`, `time`, `date`, `difftime`, all on the map's virtual clock, in
///   the local time of its ``LocalClock`` (UTC without one: ``LocalTime``);
/// - `debug` reduced to `traceback`, a read-only `getinfo`, `gethook` (answering `"external
///   hook"`, as Lua does for a hook set from C: the host's budget), `getmetatable` of what
///   the host does not protect, and `setmetatable` of the string metatable alone (taken
///   away and given back, as Penlight's `pretty.read` does);
///   `package`, `require` and an `io`
///   that only writes to the trace (``ModuleSystem``): Lua source modules from the requiring
///   file's folder and the module roots, as ``ModuleHooks`` find them;
/// - `print` adds a `log` record to the trace; `print`, `tostring` and `inspect` show values
///   without memory addresses (``ValueRendering``);
/// - `math.random` seeded from the plugin's file name;
/// - the string metatable is protected (`getmetatable("")` is false) and its `__index` is the
///   plugin's own `string` table;
/// - `setmetatable` never gives an object a finalizer (a metatable's `__gc` never runs):
///   finalizers would run outside any handler call, so outside the time budget;
/// - the library functions that loop in C (patterns, `table.move`, `sort`, `load`, ...) are
///   the shim's bounded versions, which the time budget interrupts (LuaKit opens them).
package enum PluginSandbox {
  /// The libraries opened in each plugin state (`debug` only for the host's use: the prelude
  /// keeps `getinfo` for the host and hands the plugin `traceback` alone).
  package static let libraries: LuaLibraries = [.base, .coroutine, .table, .string, .math, .utf8, .os, .debug]

  /// What the sandbox leaves out that people reach for, with what to use instead: each
  /// reads as a function that raises this message at the caller's line when called (not
  /// "attempt to call a nil value"), so that a library keeping one in a local as it loads
  /// (Penlight's `local getenv = os.getenv`) loads and fails only if it calls it; `waymark
  /// check` reports a use with the same text statically. Keys are `library.name`.
  static let refusals: [String: String] = {
    let files = "plugins and scripts run in a sandbox without files"
    var table: [String: String] = [
      "package.loadlib": "package.loadlib is not available: the sandbox loads Lua source only, never C code"
    ]
    for name in ["open", "lines", "read", "input", "output", "close", "popen", "tmpfile", "seek"] {
      table["io." + name] =
        "io.\(name) is not available: \(files); io has only write, stdout and stderr, which print to the trace"
    }
    for name in ["execute", "getenv", "exit", "remove", "rename", "tmpname", "setlocale"] {
      table["os." + name] =
        "os.\(name) is not available: \(files) or programs; os has only clock, time, date and difftime, on the map's virtual clock"
    }
    for name in [
      "sethook", "getlocal", "setlocal", "getupvalue", "setupvalue", "getregistry",
      "upvalueid", "upvaluejoin", "getuservalue", "setuservalue", "debug",
    ] {
      table["debug." + name] =
        "debug.\(name) is not available in the sandbox: it reaches inside functions, the registry or the host's hooks; "
        + "debug has only traceback, getinfo, gethook, getmetatable and setmetatable of the string metatable"
    }
    return table
  }()

  /// What `debug.setmetatable` raises when asked for anything but taking the string
  /// metatable away (`debug.setmetatable("", nil)`) or giving it back (with what
  /// `getmetatable("")` answered), which is all Penlight's `pretty.read` asks of it.
  static let setMetatableRefusal =
    "debug.setmetatable is not available in the sandbox but to take the string metatable away "
    + "(debug.setmetatable(\"\", nil)) and give it back (with what getmetatable(\"\") answered): "
    + "an object's metatable is set with setmetatable"

  /// Lua 5.1's names that Lua 5.4 no longer has, with what to use instead. As in any Lua 5.4
  /// they read as nil, so that code written for several versions (`local unpack = unpack or
  /// table.unpack`, as many libraries and their busted suites do) runs; `waymark check`
  /// reports a use of one, but not a test of it (`unpack or ...`, `if unpack then`).
  static let lua51Names: [String: String] = [
    "unpack": "unpack is Lua 5.1: in Lua 5.4 it is table.unpack",
    "loadstring": "loadstring is Lua 5.1: in Lua 5.4 it is load",
    "setfenv": "setfenv is Lua 5.1: in Lua 5.4 pass an environment to load",
    "getfenv": "getfenv is Lua 5.1: in Lua 5.4 use _ENV",
    "module": "module is Lua 5.1: a Lua 5.4 module returns a table",
    "math.pow": "math.pow is Lua 5.1: in Lua 5.4 write x ^ y",
    "table.getn": "table.getn is Lua 5.1: in Lua 5.4 write #t",
  ]

  /// Runs the prelude and pushes the plugin's globals table and the host's `linedefined`
  /// helper. Stack: +2. `clock` is the local clock of `os.time` and `os.date` at each call
  /// (nil: UTC, from 2025-01-01T00:00:00Z). Returns the table of ``ValueRendering`` (`join` is what `map:log`
  /// writes, `show` and `first_difference` what expectations use).
  @discardableResult
  package static func build(
    on stack: LuaStack, now: @escaping () -> Double, log: @escaping (_ stack: LuaStack, _ index: Int32) throws -> Void,
    modules: ModuleHooks, seed: Int, clock: @escaping () -> LocalClock? = { nil }
  ) throws(LuaError) -> LuaRef {
    try stack.load(prelude, chunkName: "=(sandbox)")
    stack.push(function: "clock") { context in
      context.stack.push(now())
      return 1
    }
    try stack.run(ValueRendering.source, chunkName: "=(values)", results: 1)
    let values = stack.ref()
    // print is a Swift function called by the plugin itself, so its errors (the log budget)
    // name the plugin's line.
    stack.push(function: "print") { context in
      let stack = context.stack
      let count = stack.top
      stack.push(values)
      stack.rawGetField("join", ofTableAt: -1)
      stack.remove(at: -2)
      stack.insert(at: 1)
      try stack.call(arguments: count, results: 1)
      try log(stack, -1)
      return 0
    }
    stack.push(seed)
    stack.newTable()
    stack.push(function: "time") { context in
      guard context.argumentCount == 0 || context.stack.type(at: 1) == .nil else {
        return try LocalTime.time(context, clock: clock())
      }
      context.stack.push(LocalTime.now(now(), clock: clock()))
      return 1
    }
    stack.rawSetField("time", ofTableAt: -2)
    stack.push(function: "date") { context in
      let clock = clock()
      return try LocalTime.date(context, now: LocalTime.now(now(), clock: clock), clock: clock)
    }
    stack.rawSetField("date", ofTableAt: -2)
    stack.push(values)
    stack.newTable()
    for (name, message) in refusals {
      stack.push(message)
      stack.rawSetField(name, ofTableAt: -2)
    }
    stack.push(setMetatableRefusal)
    try stack.call(arguments: 7, results: 2)
    try ModuleSystem.install(into: -2, on: stack, hooks: modules)
    return values
  }

  /// Lua source of the prelude: trusted code run with the real globals.
  static let prelude = #"""
    local now, host_print, seed, host_os, values, refusals, set_metatable_refusal = ...
    local G = _G
    local getinfo, traceback = debug.getinfo, debug.traceback
    local pairs, select, tostring, type, error = pairs, select, tostring, type, error

    local env = {}
    for _, k in ipairs({ "assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget",
      "rawlen", "rawset", "select", "setmetatable", "getmetatable", "tonumber", "tostring", "type",
      "xpcall", "_VERSION", "load", "collectgarbage" }) do
      env[k] = G[k]
    end
    local function copy(t)
      local c = {}
      for k, v in pairs(t) do c[k] = v end
      return c
    end
    for _, name in ipairs({ "string", "table", "math", "utf8", "coroutine" }) do
      env[name] = copy(G[name])
    end
    G.math.randomseed(seed)

    env.os = {
      clock = function() return now() end,
      time = host_os.time,
      date = host_os.date,
      difftime = os.difftime,
    }
    -- The host's budget is a hook set from C, which Lua's gethook reports as "external
    -- hook": a library that saves and restores hooks (Penlight's pretty.read) leaves it be.
    local string_mt, debug_getmetatable, debug_setmetatable = getmetatable(""), debug.getmetatable, debug.setmetatable
    env.debug = {
      traceback = traceback,
      gethook = function() return "external hook" end,
      -- A table's own metatable past its __metatable field, as Lua's (dkjson reads its
      -- values' so when debug.getmetatable is there); what the host protects (its `false`:
      -- strings, the map's objects, io's files) stays hidden; any other value gives what
      -- getmetatable gives.
      getmetatable = function(value)
        local shown = getmetatable(value)
        if shown == false or type(value) ~= "table" then return shown end
        return debug_getmetatable(value)
      end,
      -- Only the string metatable, taken away and given back (false: what getmetatable("")
      -- answers, the metatable being protected).
      setmetatable = function(value, mt)
        if type(value) == "string" and (mt == nil or mt == false or mt == string_mt) then
          debug_setmetatable(value, mt ~= nil and string_mt or nil)
          return value
        end
        error(set_metatable_refusal, 2)
      end,
    }

    -- load, collectgarbage and setmetatable are the shim's (LuaKit), installed as they are
    -- so their messages are Lua's: load refuses binary chunks and gives a chunk without an
    -- environment argument the plugin's (its upvalue); collectgarbage allows "collect",
    -- "step" and "count"; setmetatable never marks an object for __gc (a finalizer would run outside any
    -- handler call, so outside its time budget).
    debug.setupvalue(G.load, 1, env)
    -- string.format is the shim's too: `%s` of a table, function or coroutine shows what
    -- tostring does, and `%p` numbers objects (0x1, 0x2, ...), so no address reaches a trace.
    debug.setupvalue(G.string.format, 2, values.tostring)
    env.print = host_print
    env.tostring = values.tostring
    env.inspect = values.inspect
    env._G = env

    -- What the sandbox leaves out reads as a function that says so when called, at the
    -- caller's line: a library that keeps one in a local as it loads (Penlight's
    -- `local getenv = os.getenv`) loads, and fails only if it calls it. One function a name,
    -- so that reading it twice gives the same value.
    local refused = {}
    local function refuse(table, prefix)
      setmetatable(table, { __index = function(_, key)
        if type(key) ~= "string" then return nil end
        local name = prefix .. key
        local message = refusals[name]
        if not message then return nil end
        local f = refused[name]
        if not f then
          f = function() error(message, 2) end
          refused[name] = f
        end
        return f
      end })
    end
    refuse(env, "")
    refuse(env.os, "os.")
    refuse(env.debug, "debug.")
    refuse(env.math, "math.")
    refuse(env.table, "table.")

    string_mt.__index = env.string
    string_mt.__metatable = false

    return env, function(f)
      local info = getinfo(f, "S")
      return info.linedefined, info.short_src
    end
    """#
}
