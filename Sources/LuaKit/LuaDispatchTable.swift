/// Handlers of one state prepared for a host's hot path: `handler(first, object)` in one C
/// call, with no Swift object retained or released per call.
///
/// The table keeps, in C, the registry indexes of a handler per slot (a host's callback
/// number), of a fixed first argument (a map, say) and of recently passed second arguments
/// (objects known by a key and their identity). A call pushes the traceback handler, the
/// handler and both arguments from the registry on the state's main thread, runs the
/// protected call under the state's memory cap and time and instruction budgets, exactly as
/// ``LuaState/callReturningBoolean(_:with:)`` does, and reads back one boolean. A handler
/// runs on the main thread, as in any Lua host: `coroutine.running()` answers it.
///
/// Lifetimes by construction: the table holds every ``LuaRef`` whose index it copied (the
/// first argument, the handlers, the cached arguments), so an index in C is valid as long
/// as the table lives and the state is open; an object cached by identity is kept alive by
/// its ``LuaRef`` (a userdata retains its object), so its identity cannot be reused by another
/// object while it is cached. Once ``close()`` is called or the state closes, no slot has a
/// handler. Confined to the state's thread, like the state.
package final class LuaDispatchTable {
  let table: LuaDispatchPointer
  private let lifetime: LuaStateLifetime
  let thread: LuaThreadPointer
  private let firstArgument: LuaRef
  private let slotCount: Int
  private var handlers: [LuaRef?]
  /// The cached second arguments, by cache entry (what keeps their indexes valid).
  private var arguments: [LuaRef?] = []

  /// A table of `slots` empty slots for `state`, whose calls all pass `firstArgument` first.
  package init(state: LuaState, slots: Int, firstArgument: LuaRef) {
    precondition(firstArgument.thread == state.thread, "LuaRef used with another state")
    guard let table = LuaC.newDispatch(state.thread, slots: Int32(slots), first: firstArgument.reference) else {
      fatalError("LuaDispatchTable: out of memory")
    }
    self.table = table
    lifetime = state.lifetime
    thread = state.thread
    self.firstArgument = firstArgument
    slotCount = slots
    handlers = Array(repeating: nil, count: slots)
    lifetime.dispatchTables.append(table)
  }

  deinit {
    lifetime.dispatchTables.removeAll { $0 == table }
    if !lifetime.isClosed { LuaC.dispatchClose(table) }
    LuaC.freeDispatch(table)
  }

  /// The owner's count of every failure of its calls, kept beside the handlers so that a
  /// ``LuaDispatchOrder`` loop can tell a call in which a nested call failed from a success.
  package var failures: Int {
    @inline(__always) get { table.pointee.failures }
    @inline(__always) set { table.pointee.failures = newValue }
  }

  /// The owner's count of failures since its last success; a ``LuaDispatchOrder`` loop
  /// resets it after each successful call.
  package var consecutiveFailures: Int {
    @inline(__always) get { table.pointee.consecutive_failures }
    @inline(__always) set { table.pointee.consecutive_failures = newValue }
  }

  /// Makes `handler` (a function of the table's state; nil: none) the handler of `slot`.
  package func setHandler(_ handler: LuaRef?, at slot: Int) {
    precondition(handler.map { $0.thread == thread } ?? true, "LuaRef used with another state")
    handlers[slot] = handler
    LuaC.dispatchSetSlot(table, slot, handler?.reference)
  }

  /// From now on no slot has a handler (a plugin disabled, a state about to close).
  package func close() { LuaC.dispatchClose(table) }

  /// Whether `slot` has a handler and the table and its state are open.
  @inline(__always)
  package func hasHandler(at slot: Int) -> Bool {
    !lifetime.isClosed && LuaC.dispatchHas(table, slot)
  }

  /// Calls the handler of `slot` (``hasHandler(at:)`` must hold) with the first argument and
  /// the object cached for `key` and `identity`; nil, without calling anything, when no
  /// object is cached for them (then call ``call(slot:argument:key:identity:)``).
  package func call(slot: Int, key: Int, identity: ObjectIdentifier) throws(LuaError) -> LuaBooleanResult? {
    precondition(slot >= 0 && slot < slotCount && !lifetime.isClosed, "LuaDispatchTable: bad call")
    let (code, status, timedOut) = LuaC.dispatchCall(table, slot, key, UInt(bitPattern: identity))
    if code == LuaC.dispatchMiss { return nil }
    return try result(code, status, timedOut)
  }

  /// Calls the handler of `slot` (``hasHandler(at:)`` must hold) with the first argument and
  /// `argument`, and caches `argument` for `key` and `identity` for the next calls.
  package func call(slot: Int, argument: LuaRef, key: Int, identity: ObjectIdentifier) throws(LuaError)
    -> LuaBooleanResult
  {
    precondition(slot >= 0 && slot < slotCount && !lifetime.isClosed, "LuaDispatchTable: bad call")
    precondition(argument.thread == thread, "LuaRef used with another state")
    let entry = key & (LuaC.dispatchCacheSize - 1)
    guard LuaC.dispatchRemember(table, key, UInt(bitPattern: identity), argument.reference) else {
      let (code, status, timedOut) = LuaC.dispatchCall(table, slot, ref: argument.reference)
      return try result(code, status, timedOut)
    }
    if arguments.isEmpty { arguments = Array(repeating: nil, count: LuaC.dispatchCacheSize) }
    arguments[entry] = argument
    // Through the cache, as every later call.
    let (code, status, timedOut) = LuaC.dispatchCall(table, slot, key, UInt(bitPattern: identity))
    return try result(code, status, timedOut)
  }

  @inline(__always)
  private func result(_ code: Int32, _ status: Int32, _ timedOut: Bool) throws(LuaError) -> LuaBooleanResult {
    switch code {
    case LuaC.dispatchFalse: return .boolean(false)
    case LuaC.dispatchTrue: return .boolean(true)
    case LuaC.dispatchNil: return .nothing
    case LuaC.dispatchError: throw takeError(status: status, timedOut: timedOut)
    default: return .other(LuaType(rawValue: code - LuaC.dispatchOther))
    }
  }

  /// The error a failed call left on top of the stack, popped.
  func takeError(status: Int32, timedOut: Bool) -> LuaError {
    let error = LuaError(thread: thread, status: status, timedOut: timedOut)
    LuaC.setTop(thread, -2)
    return error
  }
}
