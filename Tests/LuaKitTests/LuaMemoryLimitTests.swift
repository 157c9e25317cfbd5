import LuaKit
import Testing

/// The capped allocator: growth past the limit fails with a memory error
/// inside the protected call, and the state stays usable.
@Suite struct LuaMemoryLimitTests {
  static let limit = 8 << 20

  @Test func hugeStringFailsWithMemoryErrorAndStateStaysUsable() throws {
    let state = try LuaState(memoryLimit: Self.limit)
    let stack = state.stack
    let error = try #require(throws: LuaError.self) {
      try stack.run("return string.rep('x', 1e9)")
    }
    #expect(error.kind == .memory)
    #expect(error.status == .memoryError)
    #expect(error.message == "not enough memory")
    try stack.run("return 1 + 1", results: 1)
    #expect(stack.integer(at: -1) == 2)
    #expect(state.memoryInUse <= Self.limit)
  }

  @Test func tableGrowthFailsWithMemoryErrorAndIsCollectedAfterwards() throws {
    let state = try LuaState(memoryLimit: Self.limit)
    let stack = state.stack
    let before = state.memoryInUse
    let error = try #require(throws: LuaError.self) {
      try stack.run("local t = {} for i = 1, 1e9 do t[i] = {i} end")
    }
    #expect(error.kind == .memory)
    #expect(state.peakMemoryUse > Self.limit / 2)
    #expect(state.peakMemoryUse <= Self.limit)
    state.collectGarbage()
    #expect(state.memoryInUse < before + Self.limit / 4)
    try stack.run("local t = {} for i = 1, 1000 do t[i] = i end return #t", results: 1)
    #expect(stack.integer(at: -1) == 1000)
  }

  @Test func scriptsCanCatchTheMemoryErrorThemselves() throws {
    let state = try LuaState(memoryLimit: Self.limit)
    let stack = state.stack
    try stack.run("return pcall(string.rep, 'x', 1e9)", results: 2)
    #expect(stack.boolean(at: 1) == false)
    #expect(stack.string(at: 2) == "not enough memory")
  }

  @Test func limitIsAdjustable() throws {
    let state = try LuaState()
    #expect(state.memoryLimit == nil)
    try state.stack.run("local s = string.rep('x', 16 * 1024 * 1024)")
    state.memoryLimit = Self.limit
    #expect(state.memoryLimit == Self.limit)
    #expect(throws: LuaError.self) {
      try state.stack.run("local s = string.rep('x', 16 * 1024 * 1024)")
    }
    state.memoryLimit = nil
    try state.stack.run("local s = string.rep('x', 16 * 1024 * 1024)")
  }

  /// Swift frames must never be crossed by a memory-error longjmp: the cap
  /// is not enforced while a Swift function runs, only counted.
  @Test func swiftFunctionsAreNeverRefusedButTheirAllocationsCount() throws {
    let state = try LuaState(memoryLimit: Self.limit)
    let stack = state.stack
    var cleanups = 0
    stack.pushGlobals()
    stack.register("big", inTableAt: -1) { context in
      defer { cleanups += 1 }
      context.stack.push(String(repeating: "x", count: 2 * Self.limit))
      return 1
    }
    stack.pop()
    let error = try #require(throws: LuaError.self) {
      try stack.run("local s = big() return s .. 'y'")
    }
    #expect(error.kind == .memory)
    #expect(cleanups == 1)
    #expect(state.peakMemoryUse > 2 * Self.limit)
    state.collectGarbage()
    try stack.run("return 'ok'", results: 1)
    #expect(stack.string(at: -1) == "ok")
  }
}
