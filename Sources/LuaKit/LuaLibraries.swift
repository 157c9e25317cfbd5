/// A selection of Lua standard libraries to open in a new state.
///
/// Libraries are opened as globals and registered in `package.loaded`
/// (the registry's `_LOADED` table) even without `package`. The coroutine
/// library's `resume` and `wrap` are replaced by watchdog-aware versions.
package struct LuaLibraries: OptionSet, Sendable, Hashable {
  /// The bit mask understood by the C shim.
  package let rawValue: UInt32

  /// Wraps a bit mask.
  package init(rawValue: UInt32) { self.rawValue = rawValue }

  /// `_G`: print, pairs, pcall, load, setmetatable...
  package static let base = LuaLibraries(rawValue: 1 << 0)
  /// `package` and `require` (reads files: not for sandboxes).
  package static let package = LuaLibraries(rawValue: 1 << 1)
  /// `coroutine`.
  package static let coroutine = LuaLibraries(rawValue: 1 << 2)
  /// `table`.
  package static let table = LuaLibraries(rawValue: 1 << 3)
  /// `io` (files and processes: not for sandboxes).
  package static let io = LuaLibraries(rawValue: 1 << 4)
  /// `os` (includes `os.exit` and `os.remove`: reduce it for sandboxes).
  package static let os = LuaLibraries(rawValue: 1 << 5)
  /// `string` (also sets the string metatable's `__index`).
  package static let string = LuaLibraries(rawValue: 1 << 6)
  /// `math`.
  package static let math = LuaLibraries(rawValue: 1 << 7)
  /// `utf8`.
  package static let utf8 = LuaLibraries(rawValue: 1 << 8)
  /// `debug` (breaks every sandbox guarantee: tests and tools only).
  package static let debug = LuaLibraries(rawValue: 1 << 9)

  /// Every standard library.
  package static let all: LuaLibraries = [
    .base, .package, .coroutine, .table, .io, .os, .string, .math, .utf8, .debug,
  ]
}
