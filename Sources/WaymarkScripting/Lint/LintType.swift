import Foundation

/// What `waymark check` knows about the value of an expression: a basic Lua type, one of
/// the API's classes (`Map`, `Marker`, ... from ``LuaAPI/owners``), one of its table shapes
/// (`Camera`, `MarkerOptions`, ... from ``LuaAPI/shapes``), a sandbox library table, the
/// plugin table, or nothing known.
indirect enum LintType: Equatable {
  case unknown
  case `nil`, boolean, number, string, function, table
  /// A class backed by a Swift object: only its ``LuaAPI`` members exist.
  case object(String)
  /// A plain table of a known shape: only its fields are read.
  case shape(String)
  /// A table of the sandbox's standard library (`string`, `math`, `os`, ...).
  case library(String)
  /// The table the plugin file returns.
  case plugin
  /// Several possibilities (`Camera|CameraUpdate`, `Marker|Coordinate|Point`).
  case union([LintType])

  /// The type a LuaLS type name of the API stands for (`Marker?`, `Camera|CameraUpdate`,
  /// `number`, `fun(finished: boolean)`, `'ios'|'android'`...).
  init(luaLS type: String) {
    var type = type.trimmingCharacters(in: .whitespaces)
    if type.hasPrefix("("), type.hasSuffix(")?") { type = String(type.dropFirst().dropLast(2)) }
    if type.hasSuffix("?") { type.removeLast() }
    if type.hasPrefix("fun(") {
      self = .function
      return
    }
    if type.hasPrefix("{") || type.hasSuffix("]") || type.hasPrefix("table") {
      self = .table
      return
    }
    let parts = type.split(separator: "|").map { String($0) }.filter { $0 != "nil" }
    if parts.count > 1 {
      let types = parts.map(LintType.init(luaLS:))
      self = types.allSatisfy { $0 == types[0] } ? types[0] : .union(types)
      return
    }
    switch type {
    case "number", "integer": self = .number
    case "string": self = .string
    case "boolean", "true", "false": self = .boolean
    case "nil": self = .nil
    default:
      if type.hasPrefix("'") {
        self = .string
      } else if LuaAPI.owners.contains(where: { $0.name == type }) {
        self = .object(type)
      } else if LintType.shape(named: type) != nil {
        self = .shape(type)
      } else {
        self = .unknown
      }
    }
  }

  /// Every table shape the checker knows (the options of `waymark.map` among them).
  static let shapes: [LuaAPIShape] = LuaAPI.shapes

  /// The shape called `name`.
  static func shape(named name: String) -> LuaAPIShape? {
    shapes.first { $0.name == name }
  }

  /// How people call a value of this type in a message: "a string", "a Marker", "a table".
  var described: String {
    switch self {
    case .unknown: "a value"
    case .nil: "nil"
    case .boolean: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .function: "a function"
    case .table, .plugin, .library: "a table"
    case .object(let name): "a \(name)"
    case .shape(let name): "a \(name) table"
    case .union(let types): types.map(\.described).joined(separator: " or ")
    }
  }

  /// The basic Lua type of values of this type (`table` for shapes and libraries,
  /// `userdata` for objects), nil when unknown or several.
  var basic: String? {
    switch self {
    case .unknown, .union: nil
    case .nil: "nil"
    case .boolean: "boolean"
    case .number: "number"
    case .string: "string"
    case .function: "function"
    case .table, .shape, .library, .plugin: "table"
    case .object: "userdata"
    }
  }

  /// Whether a value of type `other` can stand where this type is expected (unknown types
  /// always can: only a certain mismatch is reported).
  func accepts(_ other: LintType) -> Bool {
    if case .union(let types) = self { return types.contains { $0.accepts(other) } }
    if case .union(let types) = other { return types.contains { accepts($0) } }
    guard let mine = basic, let theirs = other.basic else { return true }
    if theirs == "nil" { return true }  // optional arguments are common; nil is not worth a message
    return mine == theirs
  }

  /// The members a value of this type has (field or method names), nil when any name may
  /// exist (unknown types, plain tables, the plugin table).
  var members: [String]? {
    switch self {
    case .object(let owner): LuaAPI.entries(of: owner).map(\.name)
    case .shape(let name): LintType.shape(named: name)?.fields.map(\.name)
    default: nil
    }
  }

  /// The type of `self.name`, unknown when not known.
  func member(_ name: String) -> LintType {
    switch self {
    case .object(let owner):
      guard let entry = LuaAPI.entry(owner, name) else { return .unknown }
      return entry.kind == .method ? .function : entry.type.map(LintType.init(luaLS:)) ?? .unknown
    case .shape(let shape):
      return LintType.shape(named: shape)?.fields.first { $0.name == name }.map { LintType(luaLS: $0.type) }
        ?? .unknown
    default: return .unknown
    }
  }
}
