/// How a state counts the instructions of its calls (``LuaState/instructionBudget``).
package enum LuaInstructionCounting: Sendable, Hashable {
  /// Every instruction is counted (a count hook: about 2x on tight loops); the call that
  /// passes the budget is stopped with a ``LuaError/Kind/timeout`` error, at the same
  /// instruction on every machine.
  case exact
  /// Nothing is counted. A call that ends sooner than the budget could run at the fastest
  /// rate any machine runs Lua is within it, exactly; a longer one is stopped and sets
  /// ``LuaState/needsExactReplay``: the owner must then run the whole (deterministic) work
  /// again with ``exact`` counting and keep that run's verdicts.
  case fast
}

extension LuaState {
  /// The budget of each outermost protected call in Lua VM instructions (nil: none), and
  /// how they are counted. Unlike ``timeBudget``, the verdict never depends on the machine
  /// or its load. With a budget, ``timeBudget`` stays the safety net for what instructions
  /// do not measure (a long C call); in ``LuaInstructionCounting/fast`` counting the
  /// watchdog's budget is derived from the instruction budget instead.
  package var instructionBudget: (instructions: Int, counting: LuaInstructionCounting)? {
    get {
      let instructions = LuaC.instructionBudget(runtime)
      guard instructions != 0 else { return nil }
      return (Int(clamping: instructions), LuaC.countsExactly(runtime) ? .exact : .fast)
    }
    set {
      guard let budget = newValue, budget.instructions > 0 else {
        LuaC.setInstructionBudget(runtime, 0, exact: false)
        return
      }
      LuaC.setInstructionBudget(runtime, UInt64(budget.instructions), exact: budget.counting == .exact)
    }
  }

  /// With ``LuaInstructionCounting/fast`` counting: whether some call lasted long enough
  /// that it may have passed the instruction budget (it was not judged). Never reset.
  package var needsExactReplay: Bool { LuaC.needsExactReplay(runtime) }
}
