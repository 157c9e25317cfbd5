import LuaKit
import Testing

/// Swift functions called from Lua: errors become catchable Lua errors,
/// raised after the Swift frame returned, so Swift cleanup always runs.
@Suite struct LuaFunctionTests {
  final class Counter { var value = 0 }

  @Test func swiftFunctionReceivesArgumentsAndReturnsResults() throws {
    let state = try LuaState()
    let stack = state.stack
    stack.pushGlobals()
    stack.register("add", inTableAt: -1) { context in
      let a = try context.checkInteger(1)
      let b = try context.checkInteger(2)
      context.stack.push(a + b)
      return 1
    }
    stack.pop()
    try stack.run("return add(40, 2)", results: 1)
    #expect(stack.integer(at: -1) == 42)
  }

  @Test func thrownErrorIsCatchableInLuaAndSwiftCleanupRuns() throws {
    let state = try LuaState()
    let stack = state.stack
    let cleanups = Counter()
    stack.pushGlobals()
    stack.register("boom", inTableAt: -1) { _ in
      defer { cleanups.value += 1 }
      throw LuaFunctionError("boom")
    }
    stack.pop()
    let source = """
      local results = {}
      for i = 1, 3 do
        local ok, err = pcall(function() boom() end)
        results[i] = tostring(ok) .. " " .. err
      end
      return table.concat(results, "|")
      """
    try stack.run(source, chunkName: "@plugins/x.lua", results: 1)
    let line = "false plugins/x.lua:3: boom"
    #expect(stack.string(at: -1) == "\(line)|\(line)|\(line)")
    #expect(cleanups.value == 3)
  }

  @Test func uncaughtSwiftErrorReachesTheHostWithTraceback() throws {
    let state = try LuaState()
    let stack = state.stack
    stack.pushGlobals()
    stack.register("fail", inTableAt: -1) { _ in throw LuaFunctionError("no such marker") }
    stack.pop()
    let error = try #require(throws: LuaError.self) {
      try stack.run("\nfail()", chunkName: "@plugins/y.lua")
    }
    #expect(error.message == "plugins/y.lua:2: no such marker")
    #expect(error.traceback?.contains("[C]: in function 'fail'") == true)
  }

  @Test func argumentChecksReadLikeLuaErrors() throws {
    let state = try LuaState()
    let stack = state.stack
    stack.pushGlobals()
    stack.register("add_marker", inTableAt: -1) { context in
      try context.checkTable(1)
      return 0
    }
    stack.pop()
    let error = try #require(throws: LuaError.self) {
      try stack.run("add_marker(42)", chunkName: "@plugins/x.lua")
    }
    #expect(
      error.message
        == "plugins/x.lua:1: bad argument #1 to 'add_marker' (table expected, got number)")
    let missing = try #require(throws: LuaError.self) { try stack.run("add_marker()") }
    #expect(missing.message.hasSuffix("(table expected, got no value)"))
  }

  @Test func nestedLuaErrorIsReraisedUnchanged() throws {
    let state = try LuaState()
    let stack = state.stack
    let cleanups = Counter()
    stack.pushGlobals()
    stack.register("call_back", inTableAt: -1) { context in
      defer { cleanups.value += 1 }
      try context.checkFunction(1)
      context.stack.pushValue(at: 1)
      try context.stack.call()
      return 0
    }
    stack.pop()
    let source = """
      local ok, err = pcall(call_back, function() error("inner") end)
      return err
      """
    try stack.run(source, chunkName: "@plugins/z.lua", results: 1)
    #expect(stack.string(at: -1) == "plugins/z.lua:1: inner")
    #expect(cleanups.value == 1)
  }

  @Test func closureIsReleasedWhenLuaCollectsIt() throws {
    let state = try LuaState()
    let stack = state.stack
    let tracker = LifetimeTracker()
    do {
      let captured = tracker.make()
      stack.push(function: "f") { _ in
        _ = captured
        return 0
      }
      stack.pop()
    }
    #expect(tracker.live == 1)
    state.collectGarbage()
    #expect(tracker.live == 0)
  }
}
