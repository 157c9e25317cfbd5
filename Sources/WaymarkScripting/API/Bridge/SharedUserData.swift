import LuaKit

/// A marker's `user_data` as plain data, shared by every Lua state (plugins, the script):
/// a copy of the value last assigned, made when it was assigned.
///
/// Plain tables of booleans, numbers and strings (a GeoJSON feature's properties) are kept
/// in a compact encoding that C writes and reads in one call each; scalars, and tables that
/// hold markers or overlays or that the reader must cut or refuse, as a ``PlainValue``.
final class SharedUserData {
  private enum Storage {
    case plain(PlainValue)
    case encoded([UInt8])
  }

  private let storage: Storage
  /// About how many bytes it takes (``PlainValue/size``, whichever way it is kept).
  let size: Int

  /// The copy of a value already read.
  init(_ value: PlainValue) {
    storage = .plain(value)
    size = value.size
  }

  private init(encoded: [UInt8], size: Int) {
    storage = .encoded(encoded)
    self.size = size
  }

  /// The copy as a value tree, when it is kept so (scalars, and values that hold map
  /// objects); nil for a table kept encoded.
  var value: PlainValue? {
    if case .plain(let value) = storage { return value } else { return nil }
  }

  /// Whether the value copied was nil.
  var isNil: Bool {
    switch storage {
    case .plain(let value): if case .nil = value { return true } else { return false }
    case .encoded: return false
    }
  }

  /// Copies the value at `index` of a state whose map objects `bridge` knows, in at most
  /// `maxBytes` (``size``), as ``PlainValue/read(at:on:bridge:maxBytes:)`` does and with its
  /// errors.
  static func read(at index: Int32, on stack: LuaStack, bridge: LuaMapBridge, maxBytes: Int)
    throws(LuaFunctionError) -> SharedUserData
  {
    // A table is encoded; a scalar costs no more as a value.
    if stack.type(at: index) == .table,
      let (bytes, size) = stack.encodePlain(
        at: index, into: bridge.plainBuffer, maxValues: PlainValue.maxValues, maxBytes: maxBytes)
    {
      return SharedUserData(encoded: bytes, size: size)
    }
    return SharedUserData(try PlainValue.read(at: index, on: stack, bridge: bridge, maxBytes: maxBytes))
  }

  /// Pushes the value into the state of `bridge`. Stack: +1.
  func push(on stack: LuaStack, bridge: LuaMapBridge) {
    switch storage {
    case .plain(let value): value.push(on: stack, bridge: bridge)
    case .encoded(let bytes):
      // The bytes are the encoder's own: they always decode.
      if !stack.pushPlain(bytes) { stack.pushNil() }
    }
  }
}
