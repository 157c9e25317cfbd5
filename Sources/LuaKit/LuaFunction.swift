/// An error a Swift function raises in Lua with exactly this message.
///
/// The trampoline prefixes the Lua caller's `file:line:`, as `error()` does
/// at level 1. Any other thrown error is raised with its description; a
/// ``LuaError`` from a nested call is re-raised unchanged.
package struct LuaFunctionError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The message Lua sees.
  package var message: String

  /// Creates an error with a message.
  package init(_ message: String) { self.message = message }

  /// The message.
  package var description: String { message }
}

/// The body of a Swift function callable from Lua.
///
/// Reads its arguments from the context's stack (indexes 1...argumentCount),
/// pushes its results and returns how many it pushed. Throwing raises a Lua
/// error in the caller, after the Swift frame has returned (no longjmp ever
/// crosses Swift, so `defer` and ARC cleanup always run).
package typealias LuaFunctionBody = (LuaCallContext) throws -> Int32

/// A retained Swift closure owned by a Lua closure.
final class LuaFunctionBox {
  let name: String
  let body: LuaFunctionBody

  init(name: String, body: @escaping LuaFunctionBody) {
    self.name = name
    self.body = body
  }
}

/// Called by the C trampoline; never raises. Returns the result count or a
/// raise code with the error value on top.
let luaKitDispatch: LuaSwiftFunctionPointer = { thread, box in
  let L = thread!
  let function = Unmanaged<LuaFunctionBox>.fromOpaque(box!).takeUnretainedValue()
  let context = LuaCallContext(stack: LuaStack(thread: L), functionName: function.name)
  do {
    return try function.body(context)
  } catch let error as LuaError {
    LuaC.pushString(L, error.message)
    return LuaC.raiseAsIs
  } catch let error as LuaFunctionError {
    LuaC.pushString(L, error.message)
    return LuaC.raiseWithPosition
  } catch {
    LuaC.pushString(L, String(describing: error))
    return LuaC.raiseWithPosition
  }
}

/// Releases a box retained for Lua (a function or an object).
let luaKitRelease: LuaReleasePointer = { box in
  Unmanaged<AnyObject>.fromOpaque(box!).release()
}

extension LuaStack {
  /// Pushes a Swift closure as a Lua function. Stack: +1.
  ///
  /// The closure is retained by Lua and released when Lua collects the
  /// function or the state closes. `name` appears in argument errors
  /// (`bad argument #1 to 'name' ...`). Do not capture the state strongly.
  package func push(function name: String, _ body: @escaping LuaFunctionBody) {
    let box = Unmanaged.passRetained(LuaFunctionBox(name: name, body: body) as AnyObject).toOpaque()
    LuaC.pushSwiftFunction(L, luaKitDispatch, box, luaKitRelease)
  }

  /// Sets `t[name]` (raw) to a Swift function, for the table at `index`. Stack: 0.
  package func register(_ name: String, inTableAt index: Int32, _ body: @escaping LuaFunctionBody) {
    let t = absoluteIndex(index)
    push(function: name, body)
    rawSetField(name, ofTableAt: t)
  }
}
