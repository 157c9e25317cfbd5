/// A status code returned by the Lua C API (`lua_pcall`, `lua_load`, `lua_resume`).
///
/// Mirrors the C constants one to one; `rawValue` is the C value.
package struct LuaStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The C status code.
  package let rawValue: Int32

  /// Wraps a C status code.
  package init(rawValue: Int32) { self.rawValue = rawValue }

  /// `LUA_OK`: success.
  package static let ok = LuaStatus(rawValue: 0)
  /// `LUA_YIELD`: a coroutine yielded.
  package static let yield = LuaStatus(rawValue: 1)
  /// `LUA_ERRRUN`: a runtime error.
  package static let runtimeError = LuaStatus(rawValue: 2)
  /// `LUA_ERRSYNTAX`: a syntax error while loading a chunk.
  package static let syntaxError = LuaStatus(rawValue: 3)
  /// `LUA_ERRMEM`: a memory allocation failed (or the memory cap refused it).
  package static let memoryError = LuaStatus(rawValue: 4)
  /// `LUA_ERRERR`: an error while running the message handler.
  package static let handlerError = LuaStatus(rawValue: 5)

  /// The C constant's name, e.g. `LUA_ERRRUN`.
  package var description: String {
    switch self {
    case .ok: "LUA_OK"
    case .yield: "LUA_YIELD"
    case .runtimeError: "LUA_ERRRUN"
    case .syntaxError: "LUA_ERRSYNTAX"
    case .memoryError: "LUA_ERRMEM"
    case .handlerError: "LUA_ERRERR"
    default: "LuaStatus(\(rawValue))"
    }
  }
}
