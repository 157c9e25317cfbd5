import LuaKit
import Testing

@testable import LuaKit

/// The instruction budget: a call is judged by how many VM instructions it ran, so the
/// verdict is the same on every machine; exact counting stops it at the same instruction
/// every time, fast counting costs nothing and asks for an exact replay when it cannot tell.
@Suite struct LuaInstructionBudgetTests {
  static let budget = 1_000_000

  func state(_ counting: LuaInstructionCounting, budget: Int = LuaInstructionBudgetTests.budget) throws -> LuaState {
    let state = try LuaState()
    state.instructionBudget = (budget, counting)
    state.timeBudget = .seconds(60)  // the safety net only
    return state
  }

  @Test(arguments: LuaWatchdogTests.runaways)
  func aRunawayIsStoppedByTheInstructionBudget(name: String, source: String) throws {
    let state = try state(.exact)
    let error = try #require(throws: LuaError.self) { try state.stack.run(source, chunkName: "@plugins/loop.lua") }
    #expect(error.kind == .timeout, "\(name): \(error)")
    #expect(error.message.contains("instruction budget of 1000000 instructions exceeded"), "\(name): \(error)")
    #expect(!state.isHookArmed)
    #expect(state.stack.top == 0)
    try state.stack.run("return 1 + 1", results: 1)
    #expect(state.stack.integer(at: -1) == 2)
  }

  @Test func theStopComesAtTheSameInstructionEveryTime() throws {
    var counts: [Int] = []
    for _ in 0..<3 {
      let state = try state(.exact)
      let stack = state.stack
      #expect(throws: LuaError.self) { try stack.run("n = 0 while true do n = n + 1 end") }
      try stack.run("return n", results: 1)
      counts.append(stack.integer(at: -1) ?? -1)
    }
    #expect(counts[0] > 100_000)
    #expect(Set(counts).count == 1, "\(counts)")
  }

  @Test func aCallWithinItsBudgetRunsAndEachCallHasItsOwn() throws {
    let state = try state(.exact)
    let stack = state.stack
    try stack.run("function spend(n) local s = 0 for i = 1, n do s = s + i end return s end")
    for _ in 0..<5 {  // 5 x 300k instructions: more than the budget in all, within it each
      try stack.run("spend(100000)")
    }
    #expect(throws: LuaError.self) { try stack.run("spend(1000000)") }
  }

  @Test func instructionsInACoroutineMadeBeforeTheCallCount() throws {
    let state = try state(.exact)
    let stack = state.stack
    try stack.run("co = coroutine.wrap(function() while true do end end)")
    let error = try #require(throws: LuaError.self) { try stack.run("co()") }
    #expect(error.message.contains("instruction budget"), "\(error)")
  }

  @Test func fastCountingCostsNothingForShortCallsAndFlagsLongOnes() throws {
    let state = try state(.fast, budget: 10_000_000)  // 1 ms at the fastest rate any machine runs
    let stack = state.stack
    try stack.run("local s = 0 for i = 1, 100 do s = s + i end")
    // Whether a short call asks for a replay depends on the machine (a preempted call may pass
    // 1 ms), so only the hook is judged here: fast counting never arms it.
    #expect(!state.isHookArmed)
    #expect(throws: LuaError.self) { try stack.run("while true do end") }
    #expect(state.needsExactReplay)
    #expect(!state.isHookArmed)
  }
}
