/// An independent Lua 5.4 state: its own globals, memory cap and time budget.
///
/// Confined to one thread: create, use and release a state (and its
/// ``LuaRef``s and ``LuaStack`` views) on the same thread, or serialize all
/// access. The state closes in `deinit` (or earlier with ``close()``),
/// running the finalizers of everything Lua still holds, which releases the
/// Swift objects and closures handed to it.
///
/// Swift closures registered as Lua functions should not capture the state
/// strongly: that makes a cycle through Lua and the state never closes.
/// They receive a ``LuaCallContext`` instead. What they need beside the
/// stack belongs in the state's ``attachment``, which they may capture
/// strongly: the state owns it, so it lives exactly as long as the state.
package final class LuaState {
  let runtime: LuaRuntimePointer
  /// The main thread.
  let thread: LuaThreadPointer
  /// Registry reference of the traceback message handler.
  let messageHandler: Int32
  /// Shared with every ``LuaRef`` of the state, so a ref can tell that the
  /// state closed without keeping it open (and without a weak reference,
  /// which would make every retain of the state take the slow path).
  let lifetime: LuaStateLifetime

  /// Set once ``close()`` has begun; refs and objects no longer touch Lua.
  package var isClosed: Bool { lifetime.isClosed }

  /// An object the state owns: the host's view of this state (a map bridge,
  /// say), kept alive until the state closes and released right after Lua's
  /// own finalizers ran. Closures registered in the state may capture it
  /// strongly (no cycle: it must not hold the state strongly itself), and
  /// code holding only a ``LuaRef`` finds it again through ``LuaRef/state``.
  package var attachment: AnyObject?

  /// Creates a state with the chosen standard libraries.
  ///
  /// - Parameters:
  ///   - memoryLimit: bytes Lua may hold while Lua code runs (`nil`: no cap).
  ///     Past it, allocations fail with a ``LuaError/Kind/memory`` error
  ///     inside the protected call and the state stays usable. Host and
  ///     Swift-function code is never refused (it must not see a longjmp),
  ///     but what it allocates counts.
  ///   - libraries: which standard libraries to open.
  /// - Throws: a ``LuaError/Kind/memory`` error if the state cannot be created, a
  ///   ``LuaError/Kind/runtime`` error naming the linked release if it is not one whose
  ///   string seed Waymark can fix (Lua 5.4.0 to 5.4.8).
  package init(memoryLimit: Int? = nil, libraries: LuaLibraries = .all) throws(LuaError) {
    guard let runtime = LuaC.open(limit: max(0, memoryLimit ?? 0)) else {
      if let why = LuaC.openFailure {
        throw LuaError(status: .runtimeError, message: "cannot create a Lua state with \(LuaC.release): \(why)")
      }
      throw LuaError(status: .memoryError, message: "not enough memory to create a Lua state")
    }
    self.runtime = runtime
    self.thread = LuaC.mainThread(runtime)
    self.messageHandler = LuaC.messageHandlerRef(runtime)
    self.lifetime = LuaStateLifetime()
    LuaC.setHost(runtime, Unmanaged.passUnretained(self).toOpaque())
    LuaC.openLibraries(thread, libraries.rawValue)
  }

  deinit { close() }

  /// Closes the state now: runs pending finalizers, frees everything, then
  /// releases the ``attachment``.
  ///
  /// Idempotent. After closing, only ``isClosed`` may be used.
  package func close() {
    guard !isClosed else { return }
    lifetime.isClosed = true
    for table in lifetime.dispatchTables { LuaC.dispatchClose(table) }
    LuaC.close(runtime)
    attachment = nil
  }

  /// The main thread's stack: where host code pushes, reads and calls.
  package var stack: LuaStack {
    precondition(!isClosed, "LuaState used after close()")
    return LuaStack(thread: thread, runtime: runtime)
  }

  /// The raw `lua_State *` of the main thread, for code that must talk to the C API
  /// directly (benchmarks measuring a plain `lua_pcall` floor, interop). Nothing LuaKit
  /// promises (no longjmp across Swift, caps, budgets) holds for what is done through it.
  package var unsafeMainThread: OpaquePointer { thread }

  /// The Lua version, e.g. `"Lua 5.4.4"`.
  package static var version: String { LuaC.release }

  /// The state that owns `runtime`, if LuaKit created it and it is open.
  static func owner(of runtime: LuaRuntimePointer) -> LuaState? {
    guard let host = LuaC.host(runtime) else { return nil }
    return Unmanaged<LuaState>.fromOpaque(host).takeUnretainedValue()
  }
}

// MARK: - Memory

extension LuaState {
  /// Bytes currently allocated by this state.
  package var memoryInUse: Int { LuaC.memoryInUse(runtime) }

  /// Highest ``memoryInUse`` since creation or ``resetPeakMemoryUse()``.
  package var peakMemoryUse: Int { LuaC.memoryPeak(runtime) }

  /// Starts peak tracking afresh from the current use.
  package func resetPeakMemoryUse() { LuaC.resetPeak(runtime) }

  /// The memory cap in bytes (`nil`: none). Adjustable at any time; lowering
  /// it below ``memoryInUse`` makes the next growth in Lua code fail.
  package var memoryLimit: Int? {
    get {
      let limit = LuaC.memoryLimit(runtime)
      return limit == 0 ? nil : limit
    }
    set { LuaC.setMemoryLimit(runtime, max(0, newValue ?? 0)) }
  }

  /// Runs a full garbage-collection cycle (finalizers included).
  package func collectGarbage() { LuaC.collectGarbage(thread) }
}

// MARK: - Time budget

extension LuaState {
  /// The wall-clock budget of each outermost protected call (`nil`: none).
  ///
  /// Costs nothing while code behaves: a shared watchdog thread notices a
  /// call still running past its budget (with a resolution of a tenth of the
  /// budget, at least 1 ms) and stops it with a ``LuaError/Kind/timeout``
  /// error that the script's own `pcall` cannot swallow. Nested calls (Lua
  /// calling Swift calling Lua) share the outermost call's budget. Rounded to
  /// whole milliseconds, at least 1 ms.
  package var timeBudget: Duration? {
    get {
      let ms = LuaC.budget(runtime)
      return ms == 0 ? nil : .milliseconds(ms)
    }
    set {
      guard let budget = newValue else {
        LuaC.setBudget(runtime, 0)
        return
      }
      let (seconds, attoseconds) = budget.components
      let perMillisecond: Int64 = 1_000_000_000_000_000
      let ms =
        seconds.multipliedReportingOverflow(by: 1000).overflow
        ? Int64.max : seconds * 1000 + (attoseconds + perMillisecond / 2) / perMillisecond
      LuaC.setBudget(runtime, UInt32(clamping: max(ms, 1)))
    }
  }

  /// Whether the outermost protected call now running has passed its time budget or its
  /// instruction budget (it is being stopped). The watchdog can only stop Lua code: a Swift
  /// function that runs long work on Lua's behalf (a map's frames and timers) asks this
  /// between steps and returns early. False when no budgeted call runs.
  package var hasRunOutOfBudget: Bool { LuaC.timedOut(runtime) }

  /// Whether a watchdog hook is installed on the main thread (tests only).
  var isHookArmed: Bool { LuaC.hasHook(thread) }
}

/// Whether a state has closed, shared by the state and its references.
final class LuaStateLifetime {
  /// Set first thing in ``LuaState/close()``. Read before every call of a host's hot path.
  var isClosed = false
  /// The C tables of this state's ``LuaDispatchTable``s, closed with the state (a
  /// ``LuaDispatchOrder`` loop reads only the C side).
  var dispatchTables: [LuaDispatchPointer] = []
}
