extension LuaStack {
  /// Pass as `results` to keep every result of a call.
  package static let allResults: Int32 = -1

  // MARK: Loading

  /// Compiles a text chunk and pushes it as a function. Stack: +1 (nothing on error).
  ///
  /// Binary (precompiled) chunks are refused: crafted bytecode can crash
  /// the VM. The chunk name shows in messages and tracebacks: `"@plugins/x.lua"`
  /// prints as `plugins/x.lua:12:`, `"=name"` as `name:12:`.
  ///
  /// - Parameter environmentAt: index of a table to use as the chunk's
  ///   `_ENV` (its globals) instead of the state's globals.
  /// - Throws: a ``LuaError/Kind/syntax`` error.
  package func load(_ source: String, chunkName: String, environmentAt environment: Int32? = nil)
    throws(LuaError)
  {
    var source = source
    try source.withUTF8 { text in
      Result { () throws(LuaError) in
        try load(UnsafeRawBufferPointer(text), chunkName: chunkName, environmentAt: environment)
      }
    }.get()
  }

  /// Compiles a text chunk given as bytes, exactly as Lua reads a file: they need not be
  /// UTF-8 (Lua takes any byte in strings and comments). Otherwise the same as
  /// ``load(_:chunkName:environmentAt:)``.
  package func load(bytes source: [UInt8], chunkName: String, environmentAt environment: Int32? = nil)
    throws(LuaError)
  {
    try source.withUnsafeBytes { bytes in
      Result { () throws(LuaError) in try load(bytes, chunkName: chunkName, environmentAt: environment) }
    }.get()
  }

  private func load(_ source: UnsafeRawBufferPointer, chunkName: String, environmentAt environment: Int32?)
    throws(LuaError)
  {
    let environment = environment.map(absoluteIndex)
    let status = LuaC.loadText(L, source, chunkName)
    guard status == LuaStatus.ok.rawValue else {
      let error = LuaError(thread: L, status: status, timedOut: false)
      pop()
      throw error
    }
    if let environment {
      pushValue(at: environment)
      if !LuaC.setFirstUpvalue(L, -2) { pop() }  // a chunk without upvalues
    }
  }

  /// Loads and runs a text chunk, leaving its results on the stack.
  ///
  /// Same as ``load(_:chunkName:environmentAt:)`` then ``call(arguments:results:)``.
  package func run(
    _ source: String, chunkName: String = "=(run)", environmentAt environment: Int32? = nil,
    results: Int32 = 0
  ) throws(LuaError) {
    try load(source, chunkName: chunkName, environmentAt: environment)
    try call(arguments: 0, results: results)
  }

  // MARK: Calling

  /// Calls the function below the `arguments` top values, in protected mode.
  ///
  /// Stack: pops the function and its arguments; pushes `results` values
  /// (or all of them with ``allResults``) on success, nothing on error.
  /// Errors come back with a traceback. The state's memory cap applies
  /// while Lua runs, and the outermost call is watched by the time budget.
  package func call(arguments: Int32 = 0, results: Int32 = 0) throws(LuaError) {
    let base = top - arguments
    precondition(base >= 1, "call(arguments:) needs a function below its arguments")
    LuaC.pushRef(L, LuaC.messageHandlerRef(runtime))
    LuaC.insert(L, base)
    let (status, timedOut) = LuaC.protectedCall(runtime, L, arguments, results, base)
    guard status != LuaStatus.ok.rawValue || timedOut else {
      LuaC.remove(L, base)
      return
    }
    let error = LuaError(thread: L, status: status, timedOut: timedOut)
    setTop(base - 1)
    throw error
  }
}
