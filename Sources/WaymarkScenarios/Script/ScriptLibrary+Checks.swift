import LuaKit
import WaymarkCore
import WaymarkScripting

/// The script API for checks that hold all along, not just at one line: invariants that
/// `waymark fuzz` checks after every input it makes, and the plugin errors of the run so far.
extension ScriptLibrary {
  /// Adds `invariant`, `check_invariants` and `plugin_errors` to the `waymark` table of the
  /// environment at `environment`.
  static func installChecks(into environment: Int32, on stack: LuaStack, session: ScriptSession, values: LuaRef)
    throws(LuaError)
  {
    let environment = stack.absoluteIndex(environment)
    try stack.load(checksPrelude, chunkName: "=(script library)")
    stack.pushValue(at: environment)
    stack.push(values)
    stack.push(function: "fail") { [weak session] context in
      session?.fail(context.stack.string(at: 1) ?? "expectation failed")
      return 0
    }
    stack.push(function: "check_invariants") { context in
      let map = try context.checkObject(1, as: LuaMapBridge.mapType)
      if let broken = map.checkInvariants() { context.stack.push(broken) } else { context.stack.pushNil() }
      return 1
    }
    stack.push(function: "plugin_errors") { [weak session] context in
      let stack = context.stack
      let errors = session?.unexpectedPluginErrors() ?? []
      stack.newTable(arrayCount: Int32(clamping: errors.count))
      for (index, problem) in errors.enumerated() {
        stack.newTable()
        stack.push(problem.record.time)
        stack.rawSetField("t", ofTableAt: -2)
        if case .string(let plugin)? = problem.record.answerer {
          stack.push(plugin)
          stack.rawSetField("plugin", ofTableAt: -2)
        }
        if let handler = problem.handler {
          stack.push(handler)
          stack.rawSetField("handler", ofTableAt: -2)
        }
        stack.push(problem.record.message ?? "")
        stack.rawSetField("message", ofTableAt: -2)
        stack.rawSetIndex(index + 1, ofTableAt: -2)
      }
      return 1
    }
    try stack.call(arguments: 5, results: 0)
  }

  /// Trusted Lua run with the real globals, after ``prelude``.
  static let checksPrelude = #"""
    local env, values, host_fail, map_invariants, plugin_errors = ...
    local getinfo, type, pcall, ipairs, error = debug.getinfo, type, pcall, ipairs, error
    local show, tostring = values.show, values.tostring
    local invariants = {}

    local function fail(message)
      local info = getinfo(3, "Sl")
      host_fail((info and (info.short_src .. ":" .. (info.currentline or 0)) or "?") .. ": " .. message)
    end

    env.waymark.invariant = function(name, check)
      if type(name) ~= "string" then
        error("bad argument #1 to 'invariant' (string expected, got " .. type(name) .. ")", 2)
      end
      if type(check) ~= "function" then
        error("bad argument #2 to 'invariant' (function expected, got " .. type(check) .. ")", 2)
      end
      invariants[#invariants + 1] = { name = name, check = check }
    end

    env.waymark.check_invariants = function(map)
      local holds = true
      local broken = map_invariants(map)
      if broken then
        fail("the map's invariant does not hold: " .. broken)
        holds = false
      end
      for _, invariant in ipairs(invariants) do
        local ok, result = pcall(invariant.check, map)
        if not ok then
          fail("invariant " .. show(invariant.name) .. " raised an error: " .. tostring(result))
          holds = false
        elseif not result then
          fail("invariant " .. show(invariant.name) .. " does not hold")
          holds = false
        end
      end
      return holds
    end

    env.waymark.plugin_errors = plugin_errors
    """#
}
