import LuaKit
import WaymarkCore

/// Converts what a content handler returned (a Lua value) into the core's language-neutral
/// ``ContentValue`` tree, and back for `map.info_window.content`.
///
/// Guards against hostile values before the core ever sees them: nesting is capped, a
/// table mixing list items and named fields is refused, and so are keys and values that
/// content cannot hold (functions, userdata, non-string keys). Errors use the core's path
/// syntax: `content[2].vstack[1]: a table mixes list items and named fields`.
package enum ContentConversion {
  /// The most values accepted in one tree, so a huge table is refused before it is copied.
  static let maxValues = 10_000
  /// The most bytes of strings accepted in one tree, counted once per reference: a window
  /// shows far less, and the host copies, keeps and lays out what it accepts.
  static let maxStringBytes = ContentLimits.standard.maxTotalTextBytes

  /// Takes `count` values and `bytes` bytes of strings from `budget`, or throws which limit
  /// the content passed, at `path`.
  private static func take(_ budget: inout LuaCopyBudget, _ count: Int = 0, bytes: Int = 0, path: String)
    throws(ContentError)
  {
    switch budget.take(values: count, bytes: bytes) {
    case nil: return
    case .values: throw ContentError(path: path, message: "content has more than \(maxValues) values")
    case .bytes:
      throw ContentError(
        path: path, message: "content has more than \(maxStringBytes) bytes of text (each use of a string counts)")
    }
  }

  /// The value at `index` as a ``ContentValue``. Its size is checked as it is read, before
  /// anything past a limit is copied, so a huge answer costs the host almost nothing.
  package static func read(at index: Int32, on stack: LuaStack) throws(ContentError) -> ContentValue {
    var budget = LuaCopyBudget(maxValues: maxValues, maxBytes: maxStringBytes)
    return try read(at: stack.absoluteIndex(index), on: stack, path: "content", depth: 1, budget: &budget)
  }

  private static func read(
    at index: Int32, on stack: LuaStack, path: String, depth: Int, budget: inout LuaCopyBudget
  ) throws(ContentError) -> ContentValue {
    try take(&budget, 1, path: path)
    switch stack.type(at: index) {
    case .nil, .none: return .nil
    case .boolean: return .bool(stack.boolean(at: index))
    case .string:
      try take(&budget, bytes: stack.byteCount(at: index) ?? 0, path: path)
      return .string(stack.string(at: index) ?? "")
    case .number:
      if stack.isInteger(at: index), let n = stack.integer(at: index) { return .integer(n) }
      return .number(stack.number(at: index) ?? .nan)
    case .table:
      guard depth <= LuaCopyBudget.maxDepth else {
        throw ContentError(path: path, message: "nested deeper than \(LuaCopyBudget.maxDepth) tables")
      }
      guard stack.reserve(8) else { throw ContentError(path: path, message: "nested too deeply") }
      return try readTable(at: index, on: stack, path: path, depth: depth, budget: &budget)
    default:
      throw ContentError(
        path: path, message: "a \(stack.typeName(at: index)) value cannot be content")
    }
  }

  /// The keys of the table at `index`, sorted; every pair counts as a value, and a key that
  /// is not a string or an integer is refused.
  private static func keys(
    ofTableAt index: Int32, on stack: LuaStack, path: String, budget: inout LuaCopyBudget
  ) throws(ContentError) -> [LuaKey] {
    var keys: [LuaKey] = []
    try stack.forEachRawPair(ofTableAt: index) { key, _ throws(ContentError) in
      try take(&budget, 1, path: path)
      if stack.type(at: key) == .string {
        try take(&budget, bytes: stack.byteCount(at: key) ?? 0, path: path)
        keys.append(.string(stack.string(at: key) ?? ""))
      } else if stack.isInteger(at: key), let n = stack.integer(at: key) {
        keys.append(.integer(n))
      } else {
        throw ContentError(path: path, message: "a table key must be a string or a list index")
      }
    }
    return keys.sorted()
  }

  private static func readTable(
    at index: Int32, on stack: LuaStack, path: String, depth: Int, budget: inout LuaCopyBudget
  ) throws(ContentError) -> ContentValue {
    let keys = try keys(ofTableAt: index, on: stack, path: path, budget: &budget)
    let length = stack.rawLength(at: index)
    var listCount = 0, named: [String] = []
    for key in keys {
      switch key {
      case .integer(let n) where n >= 1 && n <= length: listCount += 1
      case .string(let name): named.append(name)
      default:
        throw ContentError(
          path: path, message: "a table key must be a string or a list index 1...n")
      }
    }
    if listCount > 0 && !named.isEmpty {
      throw ContentError(
        path: path,
        message:
          "a table mixes list items and named fields (\(named.prefix(3).joined(separator: ", "))); wrap the list, e.g. { vstack = { ... }, \(named[0]) = ... }"
      )
    }
    guard listCount == length else {
      throw ContentError(path: path, message: "a list has holes (nil items)")
    }
    if listCount > 0 {
      var items: [ContentValue] = []
      for i in 1...length {
        stack.rawGetIndex(i, ofTableAt: index)
        defer { stack.pop() }
        items.append(
          try read(at: stack.top, on: stack, path: "\(path)[\(i)]", depth: depth + 1, budget: &budget))
      }
      return .list(items)
    }
    var fields: [(key: String, value: ContentValue)] = []
    for name in named {
      stack.rawGetField(name, ofTableAt: index)
      defer { stack.pop() }
      fields.append(
        (name, try read(at: stack.top, on: stack, path: "\(path).\(name)", depth: depth + 1, budget: &budget)))
    }
    return .table(fields)
  }

  /// Pushes a content value as plain Lua data. Stack: +1.
  static func push(_ value: ContentValue, on stack: LuaStack) {
    _ = stack.reserve(4)
    switch value {
    case .nil, .unknown: stack.pushNil()
    case .bool(let b): stack.push(b)
    case .string(let s): stack.push(s)
    case .integer(let n): stack.push(n)
    case .number(let x): stack.push(x)
    case .list(let items):
      stack.newTable(arrayCount: Int32(clamping: items.count))
      for (i, item) in items.enumerated() {
        push(item, on: stack)
        stack.rawSetIndex(i + 1, ofTableAt: -2)
      }
    case .table(let fields):
      stack.newTable(fieldCount: Int32(clamping: fields.count))
      for field in fields {
        push(field.value, on: stack)
        stack.rawSetField(field.key, ofTableAt: -2)
      }
    }
  }
}
