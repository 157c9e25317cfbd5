/// What a Lua function returned when the host expected a boolean.
package enum LuaBooleanResult: Hashable, Sendable {
  /// `true` or `false`.
  case boolean(Bool)
  /// `nil`, or no value at all.
  case nothing
  /// A value of another type: usually an error in the script.
  case other(LuaType)
}

extension LuaState {
  /// Calls `function(argument)` and reads back one boolean: the host's hot path.
  ///
  /// Both values come from registry refs, the traceback handler too; on
  /// success this costs no allocation and no string conversion on top of
  /// `lua_rawgeti`×3 + `lua_pcall` + `lua_toboolean`. Runs on the main
  /// thread, under the memory cap and the time budget, like
  /// ``LuaStack/call(arguments:results:)``. The stack is left as found.
  package func callReturningBoolean(_ function: LuaRef, with argument: LuaRef) throws(LuaError)
    -> LuaBooleanResult
  {
    precondition(argument.thread == thread, "LuaRef used with another state")
    return try callReturningBoolean(function, argument: argument.reference)
  }

  /// Calls `function` with the arguments `push` pushes (returning how many) and reads back one
  /// boolean: the path of every delegate callback. The message handler goes in first, so the
  /// arguments are never moved; same costs and guarantees as ``callReturningBoolean(_:with:)``
  /// besides what `push` does.
  package func callReturningBoolean(_ function: LuaRef, pushingArguments push: (LuaStack) -> Int32)
    throws(LuaError) -> LuaBooleanResult
  {
    let L = thread
    precondition(function.thread == L, "LuaRef used with another state")
    let base = LuaC.getTop(L) + 1
    LuaC.pushRef(L, messageHandler)
    LuaC.pushRef(L, function.reference)
    let count = push(LuaStack(thread: L, runtime: runtime))
    return try finishBooleanCall(L, base: base, arguments: count)
  }

  @inline(__always)
  private func callReturningBoolean(_ function: LuaRef, argument: Int32) throws(LuaError)
    -> LuaBooleanResult
  {
    let L = thread
    precondition(function.thread == L, "LuaRef used with another state")
    let base = LuaC.getTop(L) + 1
    LuaC.pushRef(L, messageHandler)
    LuaC.pushRef(L, function.reference)
    LuaC.pushRef(L, argument)
    return try finishBooleanCall(L, base: base, arguments: 1)
  }

  @inline(__always)
  private func finishBooleanCall(_ L: LuaThreadPointer, base: Int32, arguments: Int32) throws(LuaError)
    -> LuaBooleanResult
  {
    let (status, timedOut) = LuaC.protectedCall(runtime, L, arguments, 1, base)
    if status == LuaStatus.ok.rawValue && !timedOut {
      let result: LuaBooleanResult
      switch LuaC.type(L, -1) {
      case LuaType.boolean.rawValue: result = .boolean(LuaC.toBoolean(L, -1))
      case LuaType.nil.rawValue: result = .nothing
      case let other: result = .other(LuaType(rawValue: other))
      }
      LuaC.setTop(L, base - 1)
      return result
    }
    let error = LuaError(thread: L, status: status, timedOut: timedOut)
    LuaC.setTop(L, base - 1)
    throw error
  }
}
