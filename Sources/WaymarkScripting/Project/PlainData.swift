import LuaKit

/// Plain data that outlives the Lua state it came from: what a project file or a script
/// hands a plugin as its settings (`setup(map, settings)`). Booleans, numbers, strings and
/// tables of these, whose keys are strings or integers; no functions, no map objects.
public indirect enum PlainData: Sendable, Equatable {
  /// A boolean.
  case bool(Bool)
  /// An integer (Lua's integer subtype).
  case integer(Int)
  /// A float.
  case number(Double)
  /// A string.
  case string(String)
  /// A table.
  case table([Key: PlainData])

  /// A table key: an integer or a string.
  public enum Key: Sendable, Hashable, Comparable {
    /// An integer key (a list's indexes are these).
    case integer(Int)
    /// A string key.
    case string(String)

    /// Integers first, by value, then strings by their bytes: the order a table is built in
    /// Lua, so the same data gives the same `pairs` order on every run.
    public static func < (a: Key, b: Key) -> Bool {
      switch (a, b) {
      case (.integer(let x), .integer(let y)): return x < y
      case (.integer, .string): return true
      case (.string, .integer): return false
      case (.string(let x), .string(let y)): return Array(x.utf8).lexicographicallyPrecedes(y.utf8)
      }
    }

    /// The key as a step of a path in a message: `[2]` or `.name` (`["a key"]` if not a name).
    package var pathComponent: String {
      switch self {
      case .integer(let n): return "[\(n)]"
      case .string(let text):
        let isName =
          !text.isEmpty && !text.first!.isNumber
          && text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return isName ? ".\(text)" : "[\"\(text)\"]"
      }
    }
  }

  /// The most values one read copies.
  static let maxValues = 100_000
  /// The deepest nesting one read copies (a table that holds itself passes it).
  static let maxDepth = 32

  /// Why a value is not plain data: where (`settings.stores.hours[2]`) and what it is.
  package struct ReadError: Error {
    /// The keys that lead to the value, from the value read.
    package var path: String
    /// What is wrong with it.
    package var reason: String
  }

  /// Reads the value at `index` as plain data, or throws where it is not: a function, a
  /// userdata, a key that is not a string or an integer (a boolean, a float, a function, a
  /// table...), more than 100,000 values or tables
  /// nested deeper than 32. `nil` reads as nil.
  package static func read(at index: Int32, on stack: LuaStack) throws(ReadError) -> PlainData? {
    var count = 0
    return try read(at: stack.absoluteIndex(index), on: stack, path: "", depth: 0, count: &count)
  }

  private static func read(at index: Int32, on stack: LuaStack, path: String, depth: Int, count: inout Int)
    throws(ReadError) -> PlainData?
  {
    count += 1
    guard count <= maxValues else { throw ReadError(path: path, reason: "more than \(maxValues) values") }
    switch stack.type(at: index) {
    case .nil: return nil
    case .boolean: return .bool(stack.boolean(at: index))
    case .number:
      if stack.isInteger(at: index), let n = stack.integer(at: index) { return .integer(n) }
      return .number(stack.number(at: index) ?? 0)
    case .string: return .string(String(decoding: stack.bytes(at: index) ?? [], as: UTF8.self))
    case .table:
      guard depth < maxDepth, stack.reserve(4) else {
        throw ReadError(path: path, reason: "tables nested deeper than \(maxDepth) (a table that holds itself?)")
      }
      // sortedKeys leaves out the keys it cannot sort (functions, tables...): refuse them first,
      // as a boolean or float key is refused, rather than drop them.
      if let other = otherKeyType(ofTableAt: index, on: stack) {
        throw ReadError(path: path, reason: "a key must be a string or an integer, got a \(other)")
      }
      var entries: [Key: PlainData] = [:]
      guard let keys = stack.sortedKeys(ofTableAt: index, atMost: maxValues - count) else {
        throw ReadError(path: path, reason: "more than \(maxValues) values")
      }
      for luaKey in keys {
        let key: Key
        switch luaKey {
        case .integer(let n): key = .integer(n)
        case .string(let s): key = .string(s)
        case .boolean(let b): throw ReadError(path: path, reason: "a key must be a string or an integer, got \(b)")
        case .number(let x): throw ReadError(path: path, reason: "a key must be a string or an integer, got \(x)")
        }
        stack.rawGet(luaKey, ofTableAt: index)
        defer { stack.pop() }
        let value = try read(
          at: stack.top, on: stack, path: path + key.pathComponent, depth: depth + 1, count: &count)
        entries[key] = value
      }
      return .table(entries)
    default:
      throw ReadError(
        path: path, reason: "expected plain data (a boolean, number, string or table), got \(stack.typeName(at: index))"
      )
    }
  }

  /// The type name of a key of the table at `index` that is neither a boolean, a number nor
  /// a string (a function, a table, a userdata...), if it has one.
  private static func otherKeyType(ofTableAt index: Int32, on stack: LuaStack) -> String? {
    struct Found: Error { let type: String }
    do throws(Found) {
      try stack.forEachRawPair(ofTableAt: index) { key, _ throws(Found) in
        switch stack.type(at: key) {
        case .boolean, .number, .string: return
        default: throw Found(type: stack.typeName(at: key))
        }
      }
    } catch {
      return error.type
    }
    return nil
  }

  /// Pushes the value as a new Lua value (tables filled in key order). Stack: +1.
  package func push(on stack: LuaStack) {
    switch self {
    case .bool(let flag): stack.push(flag)
    case .integer(let n): stack.push(n)
    case .number(let x): stack.push(x)
    case .string(let text): stack.push(text)
    case .table(let entries):
      _ = stack.reserve(3)
      stack.newTable()
      for key in entries.keys.sorted() {
        switch key {
        case .integer(let n): stack.push(n)
        case .string(let s): stack.push(s)
        }
        entries[key]!.push(on: stack)
        stack.rawSet(ofTableAt: -3)
      }
    }
  }
}
