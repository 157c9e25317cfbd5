import LuaKit
import Testing

@testable import LuaKit

/// The time-budget watchdog stops runaway code even when the script tries
/// to swallow the error, and leaves no hook behind.
@Suite struct LuaWatchdogTests {
  static let budget = Duration.milliseconds(50)
  /// Generous sanity bound: "it stopped at all" (machines are noisy).
  static let sanityBound = Duration.seconds(20)

  static let runaways: [(String, String)] = [
    ("endless loop", "while true do end"),
    (
      "loop swallowing errors with pcall",
      "while true do pcall(function() while true do end end) end"
    ),
    (
      "xpcall with a handler",
      "while true do xpcall(function() while true do end end, function(m) return m end) end"
    ),
    (
      "xpcall whose handler loops (Lua runs it from the stopping hook, where hooks are off)",
      "xpcall(function() while true do end end, function() while true do end end)"
    ),
    (
      "an error whose handler loops, again and again",
      "for i = 1, 100 do xpcall(error, function() while true do end end) end while true do end"
    ),
    (
      "inside a coroutine",
      "coroutine.resume(coroutine.create(function() while true do end end)) while true do end"
    ),
    (
      "coroutine loop swallowing errors",
      "while true do coroutine.resume(coroutine.create(function() while true do end end)) end"
    ),
    ("coroutine.wrap", "local f = coroutine.wrap(function() while true do end end) f()"),
    (
      "pcall around coroutine.wrap",
      "while true do pcall(coroutine.wrap(function() while true do end end)) end"
    ),
    (
      "allocating and collecting on every turn (the signal lands inside malloc and free)",
      "local t = {} while true do t = { t[1] or 0, tostring(#t) .. 'x' } end"
    ),
  ]

  @Test(arguments: runaways)
  func runawayIsStoppedWithTimeout(name: String, source: String) throws {
    let state = try LuaState()
    state.timeBudget = Self.budget
    let clock = ContinuousClock()
    let start = clock.now
    let error = try #require(throws: LuaError.self) {
      try state.stack.run(source, chunkName: "@plugins/loop.lua")
    }
    #expect(clock.now - start < Self.sanityBound)
    #expect(error.kind == .timeout, "\(name): \(error)")
    #expect(error.message.contains("time budget of 50 ms exceeded"))
    #expect(!state.isHookArmed)
    #expect(state.stack.top == 0)
  }

  @Test func stateRunsNormallyAfterATimeout() throws {
    let state = try LuaState()
    state.timeBudget = Self.budget
    let stack = state.stack
    #expect(throws: LuaError.self) { try stack.run("while true do end") }
    #expect(!state.isHookArmed)
    try stack.run("local n = 0 for i = 1, 100000 do n = n + i end return n", results: 1)
    #expect(stack.integer(at: -1) == 5_000_050_000)
    #expect(!state.isHookArmed)
  }

  @Test func quickCallsAreNeverStopped() throws {
    let state = try LuaState()
    state.timeBudget = .milliseconds(1000)
    try state.stack.run("return function(x) return x end", results: 1)
    let identity = state.stack.ref()
    state.stack.push(true)
    let argument = state.stack.ref()
    for _ in 0..<100_000 {
      #expect(try state.callReturningBoolean(identity, with: argument) == .boolean(true))
    }
    #expect(!state.isHookArmed)
  }

  @Test func timeoutIsDistinguishableFromAScriptRaisingTheSameText() throws {
    let state = try LuaState()
    state.timeBudget = Self.budget
    let error = try #require(throws: LuaError.self) {
      try state.stack.run("error('time budget of 50 ms exceeded')")
    }
    #expect(error.kind == .runtime)
  }

  @Test func timeoutReachesTheHostThroughASwiftFunction() throws {
    let state = try LuaState()
    state.timeBudget = Self.budget
    let stack = state.stack
    stack.pushGlobals()
    stack.register("call_back", inTableAt: -1) { context in
      context.stack.pushValue(at: 1)
      try context.stack.call()
      return 0
    }
    stack.pop()
    let error = try #require(throws: LuaError.self) {
      try stack.run("while true do pcall(call_back, function() while true do end end) end")
    }
    #expect(error.kind == .timeout)
    #expect(!state.isHookArmed)
  }

  @Test func withoutBudgetNothingIsWatched() throws {
    let state = try LuaState()
    #expect(state.timeBudget == nil)
    state.timeBudget = .milliseconds(20)
    #expect(state.timeBudget == .milliseconds(20))
    state.timeBudget = nil
    try state.stack.run("local n = 0 for i = 1, 3000000 do n = n + 1 end")
  }
}
