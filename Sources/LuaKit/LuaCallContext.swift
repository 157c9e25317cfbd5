/// What a Swift function sees when Lua calls it: its arguments and a stack
/// to push results on.
///
/// Valid only during the call. Argument checks throw ``LuaFunctionError``s
/// worded like Lua's own (`bad argument #1 to 'add_marker' (table expected,
/// got number)`); just let them propagate.
package struct LuaCallContext {
  /// The calling thread's stack (a coroutine's, when called from one).
  package let stack: LuaStack
  /// The name the function was registered with.
  package let functionName: String
  /// How many arguments Lua passed (indexes 1...argumentCount).
  package let argumentCount: Int32

  init(stack: LuaStack, functionName: String) {
    self.stack = stack
    self.functionName = functionName
    self.argumentCount = stack.top
  }

  // MARK: Errors

  /// `bad argument #n to 'name' (message)`, `n` counted as the caller counts, as
  /// `luaL_argerror` does: after a colon call (`map:tap("here")`) the object is not counted
  /// (`bad argument #1`), and a bad object is `calling 'name' on bad self (message)`.
  package func argumentError(_ n: Int32, _ message: String) -> LuaFunctionError {
    guard LuaC.calledAsMethod(stack.L) else {
      return LuaFunctionError("bad argument #\(n) to '\(functionName)' (\(message))")
    }
    if n == 1 { return LuaFunctionError("calling '\(functionName)' on bad self (\(message))") }
    return LuaFunctionError("bad argument #\(n - 1) to '\(functionName)' (\(message))")
  }

  /// `bad argument #n to 'name' (expected expected, got <type>)`.
  package func typeError(_ n: Int32, expected: String) -> LuaFunctionError {
    argumentError(n, "\(expected) expected, got \(stack.typeName(at: n))")
  }

  // MARK: Checks

  /// Requires a table at argument `n`; returns its index.
  @discardableResult
  package func checkTable(_ n: Int32) throws(LuaFunctionError) -> Int32 {
    guard stack.type(at: n) == .table else { throw typeError(n, expected: "table") }
    return n
  }

  /// Requires a function at argument `n`; returns its index.
  @discardableResult
  package func checkFunction(_ n: Int32) throws(LuaFunctionError) -> Int32 {
    guard stack.type(at: n) == .function else { throw typeError(n, expected: "function") }
    return n
  }

  /// Requires an integer (or a float with an exact integer value).
  package func checkInteger(_ n: Int32) throws(LuaFunctionError) -> Int {
    guard stack.type(at: n) == .number else { throw typeError(n, expected: "number") }
    guard let value = stack.integer(at: n) else {
      throw argumentError(n, "number has no integer representation")
    }
    return value
  }

  /// Requires a number.
  package func checkNumber(_ n: Int32) throws(LuaFunctionError) -> Double {
    guard let value = stack.number(at: n) else { throw typeError(n, expected: "number") }
    return value
  }

  /// Requires a string (numbers are not converted, unlike `luaL_checkstring`).
  package func checkString(_ n: Int32) throws(LuaFunctionError) -> String {
    guard let value = stack.string(at: n) else { throw typeError(n, expected: "string") }
    return value
  }

  /// Requires a boolean.
  package func checkBoolean(_ n: Int32) throws(LuaFunctionError) -> Bool {
    guard stack.type(at: n) == .boolean else { throw typeError(n, expected: "boolean") }
    return stack.boolean(at: n)
  }

  /// A string or nil/absent argument.
  package func optionalString(_ n: Int32) throws(LuaFunctionError) -> String? {
    isAbsent(n) ? nil : try checkString(n)
  }

  /// An integer or nil/absent argument.
  package func optionalInteger(_ n: Int32) throws(LuaFunctionError) -> Int? {
    isAbsent(n) ? nil : try checkInteger(n)
  }

  /// A number or nil/absent argument.
  package func optionalNumber(_ n: Int32) throws(LuaFunctionError) -> Double? {
    isAbsent(n) ? nil : try checkNumber(n)
  }

  /// Requires a Swift object of `type` (a userdata with that metatable).
  package func checkObject<Object>(_ n: Int32, as type: LuaObjectType<Object>)
    throws(LuaFunctionError) -> Object
  {
    guard let object = stack.object(at: n, as: type) else {
      throw typeError(n, expected: type.name)
    }
    return object
  }

  private func isAbsent(_ n: Int32) -> Bool {
    let t = stack.type(at: n)
    return t == .nil || t == .none
  }
}
