import LuaKit
import WaymarkCore

/// Plain data that can cross from one Lua state to another (a marker's `user_data`, hot
/// reload's `old_state`): nil, booleans, numbers, strings, markers and overlays (by identity)
/// and tables of these. Table keys must be strings (their exact bytes) or integers; other
/// keys, functions, coroutines and other userdata are dropped. Shared subtables are copied
/// once per occurrence, and nesting past a depth of 32 is dropped, which also cuts cycles.
/// A value of more than 100,000 values, or more bytes than the reader allows, is refused
/// before the part that passes the limit is copied.
indirect enum PlainValue {
  case `nil`
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string([UInt8])
  case marker(Marker)
  case overlay(Overlay)
  case table([(key: Key, value: PlainValue)])

  /// A table key: an integer, or a string as its exact bytes (invalid UTF-8 included).
  enum Key {
    case integer(Int)
    case string([UInt8])

    /// The key as a step of a path: `[1]`, `.name`, or `["a key"]` (cut to 40 bytes).
    var pathComponent: String {
      switch self {
      case .integer(let n): return "[\(n)]"
      case .string(let bytes):
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        let isName =
          bytes.count <= 40 && !bytes.isEmpty && !(0x30...0x39).contains(bytes[0])
          && bytes.allSatisfy {
            $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
          }
        guard !isName else { return "." + text }
        var quoted = ""
        TraceJSON.writeString(text + (bytes.count > 40 ? "…" : ""), to: &quoted)
        return "[" + quoted + "]"
      }
    }
  }

  /// The most values copied.
  static let maxValues = 100_000
  /// What every value costs besides the bytes of its strings, in bytes.
  static let valueCost = 16

  /// Takes one value of `extra` bytes from `budget`, or throws which limit it passed.
  private static func take(_ budget: inout LuaCopyBudget, bytes extra: Int) throws(LuaFunctionError) {
    switch budget.take(bytes: valueCost + extra) {
    case nil: return
    case .values: throw LuaFunctionError("the value has more than \(maxValues) values")
    case .bytes:
      throw LuaFunctionError(
        "the value takes more than \(formatBytes(budget.maxBytes)) (strings counted once per reference)")
    }
  }

  /// The tables a read left out for being nested past ``LuaCopyBudget/maxDepth`` (a table
  /// that holds itself is cut so too): how many, and where the first was.
  struct Cuts {
    /// How many tables were left out.
    var count = 0
    /// The keys that led to the first one, from the value read (`.a.b[1]`).
    var first: String?
    /// The keys leading to the table being read now.
    fileprivate var path: [Key] = []
  }

  /// Reads the value at `index` of a state whose map objects `bridge` knows, in at most
  /// `maxBytes` (its ``size``). Throws, before copying more, past 100,000 values or
  /// `maxBytes` bytes.
  static func read(at index: Int32, on stack: LuaStack, bridge: LuaMapBridge, maxBytes: Int)
    throws(LuaFunctionError) -> PlainValue
  {
    var cuts = Cuts()
    return try read(at: index, on: stack, bridge: bridge, maxBytes: maxBytes, cuts: &cuts)
  }

  /// ``read(at:on:bridge:maxBytes:)``, saying in `cuts` which tables were too deep to copy.
  static func read(at index: Int32, on stack: LuaStack, bridge: LuaMapBridge, maxBytes: Int, cuts: inout Cuts)
    throws(LuaFunctionError) -> PlainValue
  {
    var budget = LuaCopyBudget(maxValues: maxValues, maxBytes: maxBytes)
    return try read(
      at: stack.absoluteIndex(index), on: stack, bridge: bridge, depth: 0, budget: &budget, cuts: &cuts)
  }

  private static func read(
    at index: Int32, on stack: LuaStack, bridge: LuaMapBridge, depth: Int, budget: inout LuaCopyBudget,
    cuts: inout Cuts
  ) throws(LuaFunctionError) -> PlainValue {
    try take(&budget, bytes: stack.byteCount(at: index) ?? 0)
    switch stack.type(at: index) {
    case .boolean: return .bool(stack.boolean(at: index))
    case .number:
      if stack.isInteger(at: index), let n = stack.integer(at: index) { return .integer(n) }
      return .number(stack.number(at: index) ?? 0)
    case .string: return .string(stack.bytes(at: index) ?? [])
    case .userdata:
      if let marker = stack.object(at: index, as: LuaMapBridge.markerType) { return .marker(marker) }
      if let overlay = stack.object(at: index, as: LuaMapBridge.overlayType) {
        return .overlay(overlay)
      }
      return .nil
    case .table:
      guard depth < LuaCopyBudget.maxDepth, stack.reserve(6) else {
        cuts.count += 1
        if cuts.first == nil { cuts.first = cuts.path.map(\.pathComponent).joined() }
        return .nil
      }
      var pairs: [(key: Key, value: PlainValue)] = []
      try stack.forEachRawPair(ofTableAt: index) { key, value throws(LuaFunctionError) in
        let k: Key
        if stack.type(at: key) == .string {
          try take(&budget, bytes: stack.byteCount(at: key) ?? 0)
          k = .string(stack.bytes(at: key) ?? [])
        } else if stack.isInteger(at: key), let n = stack.integer(at: key) {
          k = .integer(n)
        } else {
          return
        }
        cuts.path.append(k)
        let v = try read(at: value, on: stack, bridge: bridge, depth: depth + 1, budget: &budget, cuts: &cuts)
        cuts.path.removeLast()
        pairs.append((k, v))
      }
      return .table(pairs)
    default: return .nil
    }
  }

  /// About how many bytes the value takes once copied: its strings' bytes and string keys,
  /// and ``valueCost`` for every value and key.
  var size: Int {
    switch self {
    case .nil, .bool, .integer, .number, .marker, .overlay: return Self.valueCost
    case .string(let bytes): return Self.valueCost + bytes.count
    case .table(let pairs):
      return pairs.reduce(Self.valueCost) { total, pair in
        let key: Int
        if case .string(let name) = pair.key { key = Self.valueCost + name.count } else { key = 0 }
        return total + key + pair.value.size
      }
    }
  }

  /// Pushes the value into the state of `bridge`. Stack: +1.
  func push(on stack: LuaStack, bridge: LuaMapBridge) {
    _ = stack.reserve(4)
    switch self {
    case .nil: stack.pushNil()
    case .bool(let b): stack.push(b)
    case .integer(let n): stack.push(n)
    case .number(let x): stack.push(x)
    case .string(let bytes): stack.push(bytes: bytes)
    case .marker(let marker): bridge.push(marker, on: stack)
    case .overlay(let overlay): bridge.push(overlay, on: stack)
    case .table(let pairs):
      stack.newTable(fieldCount: Int32(clamping: pairs.count))
      for pair in pairs {
        pair.value.push(on: stack, bridge: bridge)
        switch pair.key {
        case .integer(let n): stack.rawSetIndex(n, ofTableAt: -2)
        case .string(let bytes):
          stack.push(bytes: bytes)
          stack.insert(at: -2)
          stack.rawSet(ofTableAt: -3)
        }
      }
    }
  }
}
