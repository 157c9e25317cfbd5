/// A reference that keeps a Lua value alive from Swift (`luaL_ref`).
///
/// Released exactly once, when the last Swift reference to it goes away
/// (`luaL_unref`); a ref that outlives its state releases nothing and never
/// keeps the state open. Confined to the thread of its state, like the state.
package final class LuaRef {
  /// The registry index (`LUA_REFNIL` for nil).
  let reference: Int32
  /// The main thread of the owning state.
  let thread: LuaThreadPointer
  /// Whether the owning state has closed.
  private let lifetime: LuaStateLifetime

  init(reference: Int32, thread: LuaThreadPointer, lifetime: LuaStateLifetime) {
    self.reference = reference
    self.thread = thread
    self.lifetime = lifetime
  }

  deinit {
    if !lifetime.isClosed { LuaC.unref(thread, reference) }
  }

  /// Whether the referenced value is nil.
  package var isNil: Bool { reference == LuaC.nilRef }

  /// The state the value lives in, or nil once that state has closed: how code that keeps
  /// only a reference (a timer, a completion) finds the state, and its
  /// ``LuaState/attachment``, again without keeping either alive.
  package var state: LuaState? {
    lifetime.isClosed ? nil : LuaState.owner(of: LuaC.runtime(of: thread))
  }
}

extension LuaStack {
  /// Pops the top value and returns a reference that keeps it alive. Stack: -1.
  package func ref() -> LuaRef {
    let reference = LuaC.ref(L)
    return LuaRef(reference: reference, thread: LuaC.mainThread(runtime), lifetime: state.lifetime)
  }

  /// Pushes the referenced value. Stack: +1. The ref must belong to this state.
  package func push(_ ref: LuaRef) {
    precondition(ref.thread == LuaC.mainThread(runtime), "LuaRef used with another state")
    LuaC.pushRef(L, ref.reference)
  }
}
