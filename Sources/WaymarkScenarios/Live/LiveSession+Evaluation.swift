import LuaKit
import WaymarkCore
import WaymarkScripting

/// What evaluating a chunk of Lua in a live session gave.
public enum LiveEvaluation: Sendable, Hashable {
  /// The chunk is unfinished (its error ends at `<eof>`, as the `lua` interpreter checks):
  /// read another line and evaluate the whole again.
  case incomplete
  /// It ran; each value it returned, shown with `inspect`.
  case values([String])
  /// It could not be compiled or stopped with an error (`stdin:1: ...`).
  case failure(String)
}

extension LiveSession {
  /// Evaluates a chunk of Lua in the script's environment, as the `lua` interpreter does a
  /// line: first as an expression (`return chunk`), else as statements. Names resolve to the
  /// chunk's own globals, then the fields of the table the script returned, then `map` (the
  /// map the script drives now), then the script's top-level locals (their values now; an
  /// assignment sets the script's local), then the script's globals (`waymark`, `expect`,
  /// `inspect`, ...). The script's time budget applies.
  ///
  /// The records the chunk made wait for ``takeRecords()``.
  public func evaluate(_ chunk: LuaSource) -> LiveEvaluation {
    guard let state = session.state, !state.isClosed else { return .failure("the session is closed") }
    let stack = state.stack
    let base = stack.top
    defer { stack.setTop(base) }
    do {
      try pushEvaluationTools(on: stack)  // base + 1: the environment, base + 2: show
      do {
        try stack.load(
          LuaSource(bytes: Array("return ".utf8) + chunk.bytes), chunkName: "=stdin", environmentAt: base + 1)
      } catch {
        try stack.load(chunk, chunkName: "=stdin", environmentAt: base + 1)
      }
    } catch {
      return error.message.hasSuffix("<eof>") ? .incomplete : .failure(error.message)
    }
    state.timeBudget = session.options.scriptBudget
    defer { state.timeBudget = nil }
    do {
      try stack.call(arguments: 0, results: LuaStack.allResults)
    } catch {
      return .failure(session.describe(error))
    }
    var shown: [String] = []
    for index in stride(from: base + 3, through: stack.top, by: 1) {
      stack.pushValue(at: base + 2)
      stack.pushValue(at: index)
      do {
        try stack.call(arguments: 1, results: 1)
        shown.append(stack.string(at: -1) ?? stack.typeName(at: -1))
      } catch {
        shown.append("(inspect failed: \(error.message))")
      }
      stack.pop()
    }
    return .values(shown)
  }

  /// Pushes the evaluation environment and the `show` function, made once. Stack: +2.
  func pushEvaluationTools(on stack: LuaStack) throws(LuaError) {
    if replEnvironment == nil {
      try stack.load(Self.evaluationPrelude, chunkName: "=(repl)")
      guard let environment = session.modules.environment else {
        throw LuaError(status: .runtimeError, message: "the script has no environment")
      }
      stack.push(environment)
      if let returned = session.returned { stack.push(returned) } else { stack.pushNil() }
      guard let bridge = session.bridge else {
        throw LuaError(status: .runtimeError, message: "the script has no map bridge")
      }
      stack.push(function: "map") { [bridge] context in  // the state owns its bridge
        bridge.pushMap(on: context.stack)
        return 1
      }
      if let locals = session.locals { stack.push(locals) } else { stack.pushNil() }
      try stack.call(arguments: 4, results: 2)
      evaluationShow = stack.ref()
      replEnvironment = stack.ref()
    }
    stack.push(replEnvironment!)
    stack.push(evaluationShow!)
  }

  /// Trusted Lua run with the real globals: the evaluation environment (reads fall through
  /// to the script's returned table, the current map, the script's top-level locals, then the
  /// script's globals; a write to a top-level local's name sets that local, any other stays in
  /// it) and how a value is shown (`inspect`, which the environment may redefine).
  static let evaluationPrelude = #"""
    local script_env, returned, current_map, locals = ...
    local setmetatable, type, tostring, rawset = setmetatable, type, tostring, rawset
    local env = setmetatable({}, {
      __index = function(_, key)
        if returned ~= nil then
          local value = returned[key]
          if value ~= nil then return value end
        end
        if key == "map" then
          local map = current_map()
          if map ~= nil then return map end
        end
        local accessors = locals and locals[key]
        if accessors ~= nil then return accessors[1]() end
        return script_env[key]
      end,
      __newindex = function(self, key, value)
        local accessors = locals and locals[key]
        if accessors ~= nil and accessors[2] ~= nil then return accessors[2](value) end
        rawset(self, key, value)
      end,
    })
    local function show(value)
      local inspect = env.inspect
      if type(inspect) == "function" then return inspect(value) end
      return tostring(value)
    end
    return env, show
    """#
}
