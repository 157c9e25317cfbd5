import CLuaShims

/// The ``LuaDispatchTable``s of several states in asking order, with the nesting depth of
/// their calls: a veto (handlers asked in turn until one returns `true`) in one C call for
/// the common case, returning to Swift only where the owner has work to do (an error, an
/// answer that is neither a boolean nor nil, an argument not cached yet, a call refused
/// because the depth reached its limit) or at the first `true`.
///
/// Each table has an owner (the object whose plugin it is), handed back unretained by
/// ``Walk/owner(at:as:)``. A loop walks one list from ``enter()`` to ``leave(_:)``: setting a
/// new list meanwhile (a nested call unloading a plugin) does not change the one walked,
/// whose tables and owners stay alive until the last loop has left. Confined to one thread,
/// like the states.
package final class LuaDispatchOrder {
  @usableFromInline let order: UnsafeMutablePointer<waymark_dispatch_order>
  /// What keeps the current list's tables and owners alive.
  private var current: [AnyObject] = []
  /// The same for lists replaced while a loop walked them.
  private var retired: [[AnyObject]] = []

  /// An empty order whose calls nest at most `maxDepth` deep (``depth`` included).
  package init(maxDepth: Int) {
    guard let order = waymark_order_new(Int32(maxDepth)) else { fatalError("LuaDispatchOrder: out of memory") }
    self.order = order
  }

  deinit { waymark_order_free(order) }

  /// How deep calls are nested: those made by ``firstTrue(in:from:slot:key:identity:)``
  /// count themselves; the owner counts every other call it makes (the loop refuses a call
  /// at the limit).
  @inlinable package var depth: Int {
    get { Int(order.pointee.depth) }
    set { order.pointee.depth = Int32(newValue) }
  }

  /// Makes `entries` (each table with its owner) the order asked from the next ``enter()``.
  package func set(_ entries: [(table: LuaDispatchTable, owner: AnyObject)]) {
    let tables: [UnsafeMutablePointer<waymark_dispatch>?] = entries.map { $0.table.table }
    let owners: [UnsafeMutableRawPointer?] = entries.map { Unmanaged.passUnretained($0.owner).toOpaque() }
    guard waymark_order_set(order, tables, owners, Int32(entries.count)) != 0 else {
      fatalError("LuaDispatchOrder: out of memory")
    }
    if order.pointee.walkers > 0 { retired.append(current) }
    current = entries.flatMap { [$0.table, $0.owner] }
  }

  /// The list one loop walks, unchanged until ``leave(_:)``.
  package struct Walk {
    @usableFromInline let list: UnsafeMutablePointer<waymark_dispatch_list>

    @inlinable init(list: UnsafeMutablePointer<waymark_dispatch_list>) { self.list = list }

    /// How many tables it has.
    package var count: Int { Int(list.pointee.count) }

    /// The owner of the table at `index`, of the class given to ``LuaDispatchOrder/set(_:)``,
    /// unretained: alive until the walk is left.
    @inlinable
    package func owner<Owner: AnyObject>(at index: Int, as _: Owner.Type) -> Unmanaged<Owner> {
      Unmanaged.fromOpaque(list.pointee.owners[index]!)
    }
  }

  /// Starts a loop: every ``leave(_:)`` must follow.
  @inlinable
  package func enter() -> Walk { Walk(list: waymark_order_enter(order)) }

  /// Ends a loop; once the last has ended, lists replaced meanwhile are let go.
  @inlinable
  package func leave(_ walk: Walk) {
    if waymark_order_leave(order) != 0 { releaseRetired() }
  }

  @usableFromInline func releaseRetired() { retired.removeAll() }

  /// Where ``firstTrue(in:from:slot:key:identity:)`` stopped.
  package enum Stop {
    /// Every table was asked; none returned true.
    case none
    /// The table at the index returned true.
    case decided(Int)
    /// Its call failed: ``takeError(of:at:)`` pops the error.
    case failed(Int)
    /// It returned a value of this type, neither a boolean nor nil.
    case other(Int, LuaType)
    /// It has a handler but no argument cached for the key and identity: nothing was called.
    case miss(Int)
    /// It has a handler but the depth is at the limit: nothing was called.
    case nested(Int)
  }

  /// From the table at `start` of `walk`, calls the handler of `slot` of each open table
  /// that has one, as `handler(first, argument)` with the argument it caches for `key` and
  /// `identity` (``LuaDispatchTable/call(slot:key:identity:)``), until one returns `true`.
  /// A call answering a boolean or nil resets its table's
  /// ``LuaDispatchTable/consecutiveFailures``, unless its ``LuaDispatchTable/failures``
  /// changed during the call (a nested call failed), when its answer is ignored.
  @inlinable
  package func firstTrue(in walk: Walk, from start: Int, slot: Int, key: Int, identity: ObjectIdentifier) -> Stop {
    let stop = waymark_dispatch_first_true(
      order, walk.list, Int32(truncatingIfNeeded: start), Int32(truncatingIfNeeded: slot), key,
      UInt(bitPattern: identity))
    let index = stop >> 3
    switch Int32(truncatingIfNeeded: stop & 7) {
    case Int32(WAYMARK_ORDER_NONE): return .none
    case Int32(WAYMARK_ORDER_TRUE): return .decided(index)
    case Int32(WAYMARK_ORDER_ERROR): return .failed(index)
    case Int32(WAYMARK_ORDER_OTHER): return .other(index, LuaType(rawValue: order.pointee.stop_type))
    case Int32(WAYMARK_ORDER_MISS): return .miss(index)
    default: return .nested(index)
    }
  }

  /// The error of the call that stopped the last loop at `index` of `walk` with
  /// ``Stop/failed(_:)``, popped from its state.
  package func takeError(of walk: Walk, at index: Int) -> LuaError {
    let thread = walk.list.pointee.tables[index]!.pointee.L!
    let error = LuaError(
      thread: thread, status: order.pointee.stop_status, timedOut: order.pointee.stop_timed_out != 0)
    LuaC.setTop(thread, -2)
    return error
  }
}
