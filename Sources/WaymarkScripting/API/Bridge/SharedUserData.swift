import LuaKit

/// A marker's `user_data` as plain data, shared by every Lua state (plugins, the script):
/// a copy of the value last assigned, made when it was assigned.
///
/// Plain tables of booleans, numbers and strings (a GeoJSON feature's properties) are kept
/// in a compact encoding that C writes and reads in one call each, stored after the header
/// in the same allocation (a feature added in bulk makes one object for its properties, not
/// an object and an array); scalars, and tables that hold markers or overlays or that the
/// reader must cut or refuse, as a ``PlainValue``.
final class SharedUserData: ManagedBuffer<SharedUserDataHeader, UInt8> {
  /// The copy of a value already read.
  static func of(_ value: PlainValue) -> SharedUserData {
    make(SharedUserDataHeader(value: value, size: value.size, count: 0))
  }

  /// The copy of a table encoded as `bytes`, counted as `size` bytes.
  private static func encoded(_ bytes: UnsafeRawBufferPointer, size: Int) -> SharedUserData {
    let shared = make(SharedUserDataHeader(value: nil, size: size, count: bytes.count))
    shared.withUnsafeMutablePointerToElements { elements in
      if let start = bytes.baseAddress {
        elements.initialize(from: start.assumingMemoryBound(to: UInt8.self), count: bytes.count)
      }
    }
    return shared
  }

  /// A new instance with room for `header.count` bytes after the header.
  private static func make(_ header: SharedUserDataHeader) -> SharedUserData {
    // `create` called on a subclass makes an instance of it.
    unsafeDowncast(create(minimumCapacity: header.count) { _ in header }, to: SharedUserData.self)
  }

  /// About how many bytes it takes (``PlainValue/size``, whichever way it is kept).
  var size: Int { header.size }

  /// The copy as a value tree, when it is kept so (scalars, and values that hold map
  /// objects); nil for a table kept encoded.
  var value: PlainValue? { header.value }

  /// Whether the value copied was nil.
  var isNil: Bool {
    if let value = header.value, case .nil = value { return true }
    return false
  }

  /// Copies the value at `index` of a state whose map objects `bridge` knows, in at most
  /// `maxBytes` (``size``), as ``PlainValue/read(at:on:bridge:maxBytes:)`` does and with its
  /// errors.
  static func read(at index: Int32, on stack: LuaStack, bridge: LuaMapBridge, maxBytes: Int)
    throws(LuaFunctionError) -> SharedUserData
  {
    // A table is encoded; a scalar costs no more as a value.
    if stack.type(at: index) == .table,
      let shared = stack.encodePlain(
        at: index, into: bridge.plainBuffer, maxValues: PlainValue.maxValues, maxBytes: maxBytes, encoded)
    {
      return shared
    }
    return of(try PlainValue.read(at: index, on: stack, bridge: bridge, maxBytes: maxBytes))
  }

  /// Pushes the value into the state of `bridge`. Stack: +1.
  func push(on stack: LuaStack, bridge: LuaMapBridge) {
    let header = self.header
    if let value = header.value { return value.push(on: stack, bridge: bridge) }
    // The bytes are the encoder's own: they always decode.
    let pushed = withUnsafeMutablePointerToElements {
      stack.pushPlain(UnsafeRawBufferPointer(start: $0, count: header.count))
    }
    if !pushed { stack.pushNil() }
  }
}

/// What a ``SharedUserData`` keeps before its bytes.
struct SharedUserDataHeader {
  /// The value as a tree; nil when the bytes encode it.
  let value: PlainValue?
  /// About how many bytes the value takes (``PlainValue/size``).
  let size: Int
  /// How many encoded bytes follow the header (0 for a value tree).
  let count: Int
}
