import Testing

@testable import LuaKit

/// Registry references keep values alive exactly as long as Swift holds them.
@Suite struct LuaRefTests {
  /// Puts a table whose finalizer sets the global `collected` into a ref (through
  /// debug.setmetatable: the base library's never gives an object a finalizer, which would run
  /// outside any budget).
  private func makeWatchedRef(_ state: LuaState) throws -> LuaRef {
    let stack = state.stack
    try stack.run(
      "collected = false return debug.setmetatable({}, {__gc = function() collected = true end})",
      results: 1)
    return stack.ref()
  }

  private func collected(_ state: LuaState) -> Bool {
    state.stack.withStackBalance {
      state.stack.pushGlobals()
      state.stack.rawGetField("collected", ofTableAt: -1)
      return state.stack.boolean(at: -1)
    }
  }

  @Test func refKeepsValueAliveUntilReleased() throws {
    let state = try LuaState()
    var ref: LuaRef? = try makeWatchedRef(state)
    state.collectGarbage()
    #expect(!collected(state))
    state.stack.push(ref!)
    #expect(state.stack.type(at: -1) == .table)
    state.stack.pop()
    ref = nil
    state.collectGarbage()
    #expect(collected(state))
  }

  @Test func releasedSlotsAreReused() throws {
    let state = try LuaState()
    let stack = state.stack
    stack.newTable()
    let first = stack.ref()
    let slot = first.reference
    _ = consume first
    stack.newTable()
    let second = stack.ref()
    #expect(second.reference == slot)
  }

  @Test func refOutlivingItsStateIsHarmless() throws {
    var state: LuaState? = try LuaState()
    let ref = try makeWatchedRef(state!)
    state = nil
    #expect(!ref.isNil)
  }

  @Test func nilRef() throws {
    let state = try LuaState()
    state.stack.pushNil()
    let ref = state.stack.ref()
    #expect(ref.isNil)
    state.stack.push(ref)
    #expect(state.stack.type(at: -1) == .nil)
  }
}

/// What a state owns lives exactly as long as the state.
@Suite struct LuaStateLifetimeTests {
  @Test func theAttachmentIsReleasedWhenTheStateCloses() throws {
    let tracker = LifetimeTracker()
    let state = try LuaState(libraries: [.base])
    state.attachment = tracker.make()
    #expect(tracker.live == 1)
    state.close()
    #expect(tracker.live == 0)
    #expect(state.attachment == nil)
  }

  @Test func aRefFindsItsStateUntilItCloses() throws {
    var state: LuaState? = try LuaState(libraries: [.base])
    state!.stack.newTable()
    let ref = state!.stack.ref()
    #expect(ref.state === state)
    state!.close()
    #expect(ref.state == nil)
    state = nil
    #expect(ref.state == nil, "a ref outliving its state neither keeps it nor reaches it")
  }

  @Test func aRefDoesNotKeepItsStateAlive() throws {
    var state: LuaState? = try LuaState(libraries: [.base])
    weak let weakState = state
    state!.stack.newTable()
    let ref = state!.stack.ref()
    state = nil
    #expect(weakState == nil)
    #expect(ref.state == nil)
  }
}
