/// A reference that keeps a Lua value alive from Swift (`luaL_ref`).
///
/// Released exactly once, when the last Swift reference to it goes away
/// (`luaL_unref`); a ref that outlives its state releases nothing. Confined
/// to the thread of its state, like the state.
public final class LuaRef {
  /// The registry index (`LUA_REFNIL` for nil).
  let reference: Int32
  /// The main thread of the owning state.
  let thread: LuaThreadPointer
  private weak var owner: LuaState?

  init(reference: Int32, thread: LuaThreadPointer, owner: LuaState?) {
    self.reference = reference
    self.thread = thread
    self.owner = owner
  }

  deinit {
    if let owner, !owner.isClosed { LuaC.unref(thread, reference) }
  }

  /// Whether the referenced value is nil.
  public var isNil: Bool { reference == LuaC.nilRef }
}

extension LuaStack {
  /// Pops the top value and returns a reference that keeps it alive. Stack: -1.
  public func ref() -> LuaRef {
    let reference = LuaC.ref(L)
    return LuaRef(
      reference: reference, thread: LuaC.mainThread(runtime), owner: LuaState.owner(of: runtime))
  }

  /// Pushes the referenced value. Stack: +1. The ref must belong to this state.
  public func push(_ ref: LuaRef) {
    precondition(ref.thread == LuaC.mainThread(runtime), "LuaRef used with another state")
    LuaC.pushRef(L, ref.reference)
  }
}
