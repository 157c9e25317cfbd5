import LuaKit
import WaymarkCore

/// Plain data that can cross from one Lua state to another (hot reload's `old_state`):
/// nil, booleans, numbers, strings, markers and overlays (by identity) and tables of these.
/// Table keys must be strings or integers; other keys, functions, coroutines and other
/// userdata are dropped. Shared subtables are copied once per occurrence; nesting past a
/// depth of 32 and values past 100,000 are dropped, which also cuts cycles.
indirect enum PlainValue {
  case `nil`
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string([UInt8])
  case marker(Marker)
  case overlay(Overlay)
  case table([(key: LuaKey, value: PlainValue)])

  /// The deepest nesting copied.
  static let maxDepth = 32
  /// The most values copied.
  static let maxValues = 100_000

  /// Reads the value at `index` of a state whose map objects `bridge` knows.
  static func read(at index: Int32, on stack: LuaStack, bridge: LuaMapBridge) -> PlainValue {
    var budget = maxValues
    return read(at: stack.absoluteIndex(index), on: stack, bridge: bridge, depth: 0, budget: &budget)
  }

  private static func read(
    at index: Int32, on stack: LuaStack, bridge: LuaMapBridge, depth: Int,
    budget: inout Int
  ) -> PlainValue {
    budget -= 1
    guard budget >= 0 else { return .nil }
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
      guard depth < maxDepth, stack.reserve(6) else { return .nil }
      var pairs: [(key: LuaKey, value: PlainValue)] = []
      stack.forEachRawPair(ofTableAt: index) { key, value in
        let k: LuaKey
        if stack.type(at: key) == .string, let s = stack.string(at: key) {
          k = .string(s)
        } else if stack.isInteger(at: key), let n = stack.integer(at: key) {
          k = .integer(n)
        } else {
          return
        }
        let v = read(at: value, on: stack, bridge: bridge, depth: depth + 1, budget: &budget)
        pairs.append((k, v))
      }
      return .table(pairs)
    default: return .nil
    }
  }

  /// About how many bytes the value takes once copied: its strings' bytes and keys, and a
  /// word or two for every other value.
  var size: Int {
    switch self {
    case .nil, .bool, .integer, .number, .marker, .overlay: return 16
    case .string(let bytes): return 16 + bytes.count
    case .table(let pairs):
      return pairs.reduce(32) { total, pair in
        let key: Int
        if case .string(let name) = pair.key { key = 16 + name.utf8.count } else { key = 16 }
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
        case .string(let s): stack.rawSetField(s, ofTableAt: -2)
        default: stack.pop()
        }
      }
    }
  }
}
