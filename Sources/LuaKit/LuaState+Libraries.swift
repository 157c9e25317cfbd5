extension LuaStack {
  /// Pushes a shallow copy of a loaded standard library (e.g. `"string"`),
  /// so a sandbox can change its copy without touching the shared table.
  /// Stack: +1 if it returns true, 0 if no such library is loaded.
  ///
  /// The string metatable's `__index` still points at the shared `string`
  /// table: a sandbox that wants `("x"):upper()` to see its copy must not rely
  /// on that (the string metatable is shared by all code in a state).
  @discardableResult
  package func pushLibraryCopy(named name: String) -> Bool {
    let saved = top
    guard LuaC.pushLoadedTable(L), rawGetField(name, ofTableAt: -1) == .table else {
      setTop(saved)
      return false
    }
    pushShallowCopy(ofTableAt: -1)
    insert(at: saved + 1)
    setTop(saved + 1)
    return true
  }
}

extension LuaState {
  /// Seeds `math.random` so runs are reproducible (`math.randomseed(seed)`).
  ///
  /// - Throws: a ``LuaError`` if the math library is not open.
  package func seedRandom(_ seed: Int) throws(LuaError) {
    let stack = self.stack
    try stack.withStackBalance { () throws(LuaError) in
      guard LuaC.pushLoadedTable(thread), stack.rawGetField("math", ofTableAt: -1) == .table,
        stack.rawGetField("randomseed", ofTableAt: -1) == .function
      else {
        throw LuaError(status: .runtimeError, message: "math.randomseed is not available")
      }
      stack.push(seed)
      try stack.call(arguments: 1, results: 0)
    }
  }
}
