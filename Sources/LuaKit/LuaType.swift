/// The type of a Lua value, as returned by `lua_type`.
///
/// Mirrors the C constants one to one; `rawValue` is the C value.
package struct LuaType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The C type code.
  package let rawValue: Int32

  /// Wraps a C type code.
  package init(rawValue: Int32) { self.rawValue = rawValue }

  /// `LUA_TNONE`: no value at that index (past the top of the stack).
  package static let none = LuaType(rawValue: -1)
  /// `LUA_TNIL`.
  package static let `nil` = LuaType(rawValue: 0)
  /// `LUA_TBOOLEAN`.
  package static let boolean = LuaType(rawValue: 1)
  /// `LUA_TLIGHTUSERDATA`.
  package static let lightUserdata = LuaType(rawValue: 2)
  /// `LUA_TNUMBER`: integers and floats alike.
  package static let number = LuaType(rawValue: 3)
  /// `LUA_TSTRING`.
  package static let string = LuaType(rawValue: 4)
  /// `LUA_TTABLE`.
  package static let table = LuaType(rawValue: 5)
  /// `LUA_TFUNCTION`: Lua and C functions alike.
  package static let function = LuaType(rawValue: 6)
  /// `LUA_TUSERDATA`: full userdata (Swift objects pushed by LuaKit are these).
  package static let userdata = LuaType(rawValue: 7)
  /// `LUA_TTHREAD`: a coroutine.
  package static let thread = LuaType(rawValue: 8)

  /// The name Lua's `type()` returns, e.g. `"table"` (`"no value"` for `none`).
  package var description: String {
    switch self {
    case .none: "no value"
    case .nil: "nil"
    case .boolean: "boolean"
    case .lightUserdata, .userdata: "userdata"
    case .number: "number"
    case .string: "string"
    case .table: "table"
    case .function: "function"
    case .thread: "thread"
    default: "LuaType(\(rawValue))"
    }
  }
}
