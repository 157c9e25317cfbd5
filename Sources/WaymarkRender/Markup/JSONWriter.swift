/// Writes an `Encodable` value as compact JSON, quickly and as the same bytes everywhere:
/// keys in the order the type encodes them (a synthesized `Encodable` follows the
/// declaration), nil left out, a whole number without a fraction and any other `Double` as
/// Swift prints it, the shortest text that reads back as the same number. A page that draws
/// from the JSON draws from the very numbers Swift drew from.
///
/// It writes as it goes (no tree of values in between), so a value must finish writing a
/// nested container before it writes to the container around it, as synthesized coding does.
enum JSONWriter {
  /// `value` as JSON.
  static func json<T: Encodable>(_ value: T) -> String {
    let writer = Writer()
    writer.write(value)
    return writer.buffer.text
  }
}

/// The encoder: one stack of open containers, each with whether it holds a value yet.
private final class Writer: Encoder {
  var buffer = SVGBuffer(capacity: 1 << 16)
  /// The containers open, innermost last: the byte that closes each, and whether it is empty.
  var open: [(closing: UInt8, empty: Bool)] = []
  /// Whether the value being written has not opened its container yet.
  var valueStarted = false

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// Writes a whole value: its container, filled by its `encode(to:)`, and closed.
  func write<T: Encodable>(_ value: T) {
    let depth = open.count
    valueStarted = true
    do { try value.encode(to: self) } catch { buffer.raw("null") }  // nothing here throws
    if valueStarted { buffer.raw("null") }  // a value that wrote nothing at all
    valueStarted = false
    close(downTo: depth)
  }

  /// Closes the containers deeper than `depth`.
  func close(downTo depth: Int) {
    while open.count > depth { buffer.byte(open.removeLast().closing) }
  }

  /// Opens a container for the value being written (once: a second call reuses it).
  func begin(_ opening: UInt8, _ closing: UInt8) -> Int {
    if valueStarted {
      valueStarted = false
      buffer.byte(opening)
      open.append((closing, true))
    }
    return open.count
  }

  /// Prepares the container at `depth` (1-based) for its next element: closes deeper ones
  /// and writes the comma.
  func element(at depth: Int) {
    close(downTo: depth)
    if open[depth - 1].empty { open[depth - 1].empty = false } else { buffer.byte(UInt8(ascii: ",")) }
  }

  func key(_ key: some CodingKey, at depth: Int) {
    element(at: depth)
    buffer.json(key.stringValue)
    buffer.byte(UInt8(ascii: ":"))
  }

  func number(_ value: Double) {
    if value.rounded() == value, abs(value) < 1e15 {
      buffer.raw(String(Int64(value)))
    } else if value.isFinite {
      buffer.raw(value.description)
    } else {
      buffer.raw("null")
    }
  }

  func primitive(_ text: String) {
    valueStarted = false
    buffer.raw(text)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(KeyedWriter(writer: self, depth: begin(UInt8(ascii: "{"), UInt8(ascii: "}"))))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    UnkeyedWriter(writer: self, depth: begin(UInt8(ascii: "["), UInt8(ascii: "]")))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { SingleWriter(writer: self) }
}

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let writer: Writer
  let depth: Int
  var codingPath: [any CodingKey] { [] }

  func encodeNil(forKey key: Key) {
    writer.key(key, at: depth)
    writer.buffer.raw("null")
  }
  func encode(_ value: Bool, forKey key: Key) {
    writer.key(key, at: depth)
    writer.buffer.raw(value ? "true" : "false")
  }
  func encode(_ value: String, forKey key: Key) {
    writer.key(key, at: depth)
    writer.buffer.json(value)
  }
  func encode(_ value: Double, forKey key: Key) {
    writer.key(key, at: depth)
    writer.number(value)
  }
  func integer(_ value: some BinaryInteger, _ key: Key) {
    writer.key(key, at: depth)
    writer.buffer.raw(String(value))
  }
  func encode(_ value: Int, forKey key: Key) { integer(value, key) }
  func encode(_ value: Int8, forKey key: Key) { integer(value, key) }
  func encode(_ value: Int16, forKey key: Key) { integer(value, key) }
  func encode(_ value: Int32, forKey key: Key) { integer(value, key) }
  func encode(_ value: Int64, forKey key: Key) { integer(value, key) }
  func encode(_ value: UInt, forKey key: Key) { integer(value, key) }
  func encode(_ value: UInt8, forKey key: Key) { integer(value, key) }
  func encode(_ value: UInt16, forKey key: Key) { integer(value, key) }
  func encode(_ value: UInt32, forKey key: Key) { integer(value, key) }
  func encode(_ value: UInt64, forKey key: Key) { integer(value, key) }
  func encode(_ value: Float, forKey key: Key) { encode(Double(value), forKey: key) }
  func encode<T: Encodable>(_ value: T, forKey key: Key) {
    writer.key(key, at: depth)
    writer.write(value)
  }
  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    writer.key(key, at: depth)
    writer.valueStarted = true
    return writer.container(keyedBy: keyType)
  }
  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    writer.key(key, at: depth)
    writer.valueStarted = true
    return writer.unkeyedContainer()
  }
  func superEncoder() -> any Encoder {
    writer.element(at: depth)
    writer.buffer.raw("\"super\":")
    writer.valueStarted = true
    return writer
  }
  func superEncoder(forKey key: Key) -> any Encoder {
    writer.key(key, at: depth)
    writer.valueStarted = true
    return writer
  }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
  let writer: Writer
  let depth: Int
  var codingPath: [any CodingKey] { [] }
  private(set) var count = 0

  init(writer: Writer, depth: Int) {
    self.writer = writer
    self.depth = depth
  }

  mutating func encodeNil() {
    count += 1
    writer.element(at: depth)
    writer.buffer.raw("null")
  }
  mutating func encode(_ value: Bool) {
    count += 1
    writer.element(at: depth)
    writer.buffer.raw(value ? "true" : "false")
  }
  mutating func encode(_ value: String) {
    count += 1
    writer.element(at: depth)
    writer.buffer.json(value)
  }
  mutating func encode(_ value: Double) {
    count += 1
    writer.element(at: depth)
    writer.number(value)
  }
  mutating func integer(_ value: some BinaryInteger) {
    count += 1
    writer.element(at: depth)
    writer.buffer.raw(String(value))
  }
  mutating func encode(_ value: Int) { integer(value) }
  mutating func encode(_ value: Int8) { integer(value) }
  mutating func encode(_ value: Int16) { integer(value) }
  mutating func encode(_ value: Int32) { integer(value) }
  mutating func encode(_ value: Int64) { integer(value) }
  mutating func encode(_ value: UInt) { integer(value) }
  mutating func encode(_ value: UInt8) { integer(value) }
  mutating func encode(_ value: UInt16) { integer(value) }
  mutating func encode(_ value: UInt32) { integer(value) }
  mutating func encode(_ value: UInt64) { integer(value) }
  mutating func encode(_ value: Float) { encode(Double(value)) }
  mutating func encode<T: Encodable>(_ value: T) {
    count += 1
    writer.element(at: depth)
    writer.write(value)
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    count += 1
    writer.element(at: depth)
    writer.valueStarted = true
    return writer.container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    count += 1
    writer.element(at: depth)
    writer.valueStarted = true
    return writer.unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder {
    count += 1
    writer.element(at: depth)
    writer.valueStarted = true
    return writer
  }
}

private struct SingleWriter: SingleValueEncodingContainer {
  let writer: Writer
  var codingPath: [any CodingKey] { [] }

  func encodeNil() { writer.primitive("null") }
  func encode(_ value: Bool) { writer.primitive(value ? "true" : "false") }
  func encode(_ value: String) {
    writer.valueStarted = false
    writer.buffer.json(value)
  }
  func encode(_ value: Double) {
    writer.valueStarted = false
    writer.number(value)
  }
  func encode(_ value: Int) { writer.primitive(String(value)) }
  func encode(_ value: Int8) { writer.primitive(String(value)) }
  func encode(_ value: Int16) { writer.primitive(String(value)) }
  func encode(_ value: Int32) { writer.primitive(String(value)) }
  func encode(_ value: Int64) { writer.primitive(String(value)) }
  func encode(_ value: UInt) { writer.primitive(String(value)) }
  func encode(_ value: UInt8) { writer.primitive(String(value)) }
  func encode(_ value: UInt16) { writer.primitive(String(value)) }
  func encode(_ value: UInt32) { writer.primitive(String(value)) }
  func encode(_ value: UInt64) { writer.primitive(String(value)) }
  func encode(_ value: Float) { encode(Double(value)) }
  func encode<T: Encodable>(_ value: T) { writer.write(value) }
}
