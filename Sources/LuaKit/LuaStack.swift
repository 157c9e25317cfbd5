/// A view of one Lua thread's stack: push, read and inspect values.
///
/// Indexes follow the C API: positive from the bottom (1 is the first slot),
/// negative from the top (-1 is the top). A view is only valid while its
/// state is open and, inside a Swift function, while that function runs:
/// do not store it.
///
/// Discipline: every method documents its stack effect. Wrap code that must
/// leave the stack as it found it in ``withStackBalance(_:)``.
package struct LuaStack {
  let L: LuaThreadPointer
  let runtime: LuaRuntimePointer

  init(thread: LuaThreadPointer, runtime: LuaRuntimePointer) {
    self.L = thread
    self.runtime = runtime
  }

  init(thread: LuaThreadPointer) {
    self.init(thread: thread, runtime: LuaC.runtime(of: thread))
  }

  /// The state this stack belongs to.
  package var state: LuaState {
    guard let state = LuaState.owner(of: runtime) else {
      preconditionFailure("stack of a foreign state")
    }
    return state
  }

  // MARK: Size and indexes

  /// The index of the top value, which is also the number of values.
  package var top: Int32 { LuaC.getTop(L) }

  /// Sets the top: drops values, or fills with nil.
  package func setTop(_ index: Int32) { LuaC.setTop(L, index) }

  /// Pops `count` values.
  package func pop(_ count: Int32 = 1) { LuaC.setTop(L, -count - 1) }

  /// The absolute (positive) form of `index`, stable while pushing.
  package func absoluteIndex(_ index: Int32) -> Int32 { LuaC.absIndex(L, index) }

  /// Makes room for `count` more values; false if the stack cannot grow.
  ///
  /// LuaKit functions receive at least 20 free slots (`LUA_MINSTACK`); ask
  /// for more before pushing many values.
  package func reserve(_ count: Int32) -> Bool { LuaC.checkStack(L, count) }

  /// Runs `body` and restores the top to its height before the call.
  ///
  /// Values `body` pushed are dropped even when it throws. Use it around
  /// reads that push temporaries; return what you need as Swift values.
  package func withStackBalance<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    let saved = LuaC.getTop(L)
    defer { LuaC.setTop(L, saved) }
    return try body()
  }

  /// Stops the garbage collector if it is running and answers whether it did, for
  /// ``resumeCollector(ifPaused:)`` to restart it: around a native call that makes many
  /// objects which all stay reachable (a bulk add's userdata), whose allocations would
  /// otherwise drive collection steps over the rest of the heap that cannot free any of
  /// them. An allocation that fails still collects first (Lua's emergency collection runs
  /// while the collector is stopped).
  package func pauseCollector() -> Bool { LuaC.pauseCollector(L) }

  /// Restarts the collector when `paused` (what ``pauseCollector()`` answered).
  package func resumeCollector(ifPaused paused: Bool) {
    if paused { LuaC.resumeCollector(L) }
  }

  // MARK: Types

  /// The type of the value at `index` (``LuaType/none`` past the top).
  package func type(at index: Int32) -> LuaType { LuaType(rawValue: LuaC.type(L, index)) }

  /// The type name a user should read in messages: the `__name` of a
  /// userdata's metatable if any, else Lua's `type()` name.
  package func typeName(at index: Int32) -> String {
    if type(at: index) == .userdata, let name = LuaC.metafieldName(L, index) { return name }
    return type(at: index).description
  }

  /// Whether the value at `index` is an integer (not a float).
  package func isInteger(at index: Int32) -> Bool { LuaC.isInteger(L, index) }

  /// Whether the two values are primitively equal (`rawequal`).
  package func rawEqual(_ a: Int32, _ b: Int32) -> Bool { LuaC.rawEqual(L, a, b) }

  // MARK: Push

  /// Pushes nil. Stack: +1.
  package func pushNil() { LuaC.pushNil(L) }
  /// Pushes a boolean. Stack: +1.
  package func push(_ value: Bool) { LuaC.pushBoolean(L, value) }
  /// Pushes an integer. Stack: +1.
  package func push(_ value: Int) { LuaC.pushInteger(L, value) }
  /// Pushes a float. Stack: +1.
  package func push(_ value: Double) { LuaC.pushNumber(L, value) }
  /// Pushes a string (its UTF-8 bytes; embedded zeros are kept). Stack: +1.
  package func push(_ value: String) { LuaC.pushString(L, value) }
  /// Pushes arbitrary bytes as a Lua string. Stack: +1.
  package func push(bytes: some Sequence<UInt8>) {
    Array(bytes).withUnsafeBytes { LuaC.pushBytes(L, $0) }
  }
  /// Pushes the bytes of a buffer as a Lua string, without an intermediate copy. Stack: +1.
  package func push(buffer: UnsafeRawBufferPointer) { LuaC.pushBytes(L, buffer) }
  /// Pushes a copy of the value at `index`. Stack: +1.
  package func pushValue(at index: Int32) { LuaC.pushValue(L, index) }
  /// Pushes the globals table of the state. Stack: +1.
  package func pushGlobals() { LuaC.pushGlobals(L) }
  /// Moves the top value to `index`, shifting up the values above. Stack: 0.
  package func insert(at index: Int32) { LuaC.insert(L, index) }
  /// Removes the value at `index`, shifting down the values above. Stack: -1.
  package func remove(at index: Int32) { LuaC.remove(L, index) }

  // MARK: Read (no conversion in place, never raises)

  /// Lua truthiness: false only for nil, false and no value.
  package func boolean(at index: Int32) -> Bool { LuaC.toBoolean(L, index) }

  /// The integer at `index`, if it is a number with an exact integer value
  /// (floats like `3.0` convert; strings do not).
  package func integer(at index: Int32) -> Int? {
    type(at: index) == .number ? LuaC.toInteger(L, index) : nil
  }

  /// The number at `index` as a Double, if it is a number (strings do not convert).
  package func number(at index: Int32) -> Double? {
    type(at: index) == .number ? LuaC.toNumber(L, index) : nil
  }

  /// The string at `index`, if it is a string. Invalid UTF-8 is repaired
  /// with U+FFFD; use ``bytes(at:)`` for exact bytes.
  package func string(at index: Int32) -> String? {
    type(at: index) == .string ? LuaC.string(L, index) : nil
  }

  /// The exact bytes of the string at `index`, if it is a string.
  package func bytes(at index: Int32) -> [UInt8]? {
    guard type(at: index) == .string else { return nil }
    return LuaC.withStringBytes(L, index) { Array($0) }
  }

  /// The length in bytes of the string at `index` (without copying it), if it is a string.
  package func byteCount(at index: Int32) -> Int? {
    type(at: index) == .string ? LuaC.rawLength(L, index) : nil
  }

  /// At most the first `limit` bytes of the string at `index`, cut at a UTF-8 character
  /// boundary, and the string's whole length: for text a host keeps, so a huge string is
  /// never copied whole. Invalid UTF-8 is repaired with U+FFFD.
  package func string(at index: Int32, atMost limit: Int) -> (text: String, length: Int)? {
    guard type(at: index) == .string else { return nil }
    return LuaC.withStringBytes(L, index) { bytes in
      guard bytes.count > limit else { return (String(decoding: bytes, as: UTF8.self), bytes.count) }
      var end = max(0, limit)
      while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a character
      return (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self), bytes.count)
    }
  }
}
