import LuaKit

/// Encodes a Lua value as JSON text, the same bytes on every run: an object's keys sorted
/// by their bytes, no spaces. A table whose keys are exactly 1...n (n > 0) is an array,
/// one whose keys are all strings an object, an empty table `{}`; the `null` sentinel is
/// `null`; integers are written as integers, floats in their shortest exact form. Anything
/// else (a function, a mixed or sparse table, NaN, a string that is not UTF-8, a table
/// nested deeper than ``JSONReader/maxDepth``, which cuts cycles) is an error naming its
/// path in the value.
package struct JSONWriter {
  private let stack: LuaStack
  private let nullIndex: Int32?
  private(set) var output: [UInt8] = []
  private var path: [String] = []

  /// The JSON text of the value at `index`; `nullIndex` holds the value written as `null`.
  package static func encode(at index: Int32, on stack: LuaStack, null nullIndex: Int32?) throws(LuaFunctionError)
    -> [UInt8]
  {
    var writer = JSONWriter(stack: stack, nullIndex: nullIndex.map(stack.absoluteIndex))
    try writer.write(at: stack.absoluteIndex(index))
    return writer.output
  }

  private init(stack: LuaStack, nullIndex: Int32?) {
    self.stack = stack
    self.nullIndex = nullIndex
  }

  private func failure(_ reason: String) -> LuaFunctionError {
    LuaFunctionError("cannot encode \(path.isEmpty ? "the value" : "value" + path.joined()) as JSON: \(reason)")
  }

  private mutating func write(at index: Int32) throws(LuaFunctionError) {
    switch stack.type(at: index) {
    case .nil: output += Array("null".utf8)
    case .boolean: output += Array((stack.boolean(at: index) ? "true" : "false").utf8)
    case .number:
      if stack.isInteger(at: index), let n = stack.integer(at: index) {
        output += Array(String(n).utf8)
      } else {
        let x = stack.number(at: index) ?? .nan
        // As Lua prints them (docs/plugins.md, "Printing values"): NaN is `nan` whatever its sign.
        guard x.isFinite else { throw failure("\(x.isNaN ? "nan" : x < 0 ? "-inf" : "inf") has no JSON form") }
        output += Array("\(x)".utf8)
      }
    case .string:
      guard let bytes = stack.bytes(at: index), let text = String(validating: bytes, as: UTF8.self) else {
        throw failure("a string that is not valid UTF-8")
      }
      writeString(text)
    case .table:
      if let nullIndex, stack.rawEqual(index, nullIndex) {
        output += Array("null".utf8)
        return
      }
      try writeTable(at: index)
    default:
      throw failure("a \(stack.typeName(at: index))")
    }
  }

  private mutating func writeTable(at index: Int32) throws(LuaFunctionError) {
    guard path.count < JSONReader.maxDepth, stack.reserve(4) else {
      throw failure("nested deeper than \(JSONReader.maxDepth) (a table that holds itself?)")
    }
    let keys = stack.sortedKeys(ofTableAt: index)
    let length = stack.rawLength(at: index)
    if length > 0, keys.count == length {
      output.append(0x5B)
      for position in 1...length {
        if position > 1 { output.append(0x2C) }
        _ = stack.rawGetIndex(position, ofTableAt: index)
        path.append("[\(position)]")
        defer {
          path.removeLast()
          stack.pop()
        }
        try write(at: stack.top)
      }
      output.append(0x5D)
      return
    }
    var names: [[UInt8]] = []
    for key in keys {
      guard case .string(let name) = key else {
        throw failure(
          length > 0 || keys.contains(where: { if case .string = $0 { false } else { true } })
            ? "a table with keys that are neither 1...n nor all strings" : "a key that is not a string")
      }
      names.append(Array(name.utf8))
    }
    output.append(0x7B)
    for (position, name) in zip(names.indices, names) {
      if position > 0 { output.append(0x2C) }
      writeString(String(decoding: name, as: UTF8.self))
      output.append(0x3A)
      stack.push(bytes: name)
      _ = stack.rawGet(ofTableAt: index)
      path.append(PlainValue.Key.string(name).pathComponent)
      defer {
        path.removeLast()
        stack.pop()
      }
      try write(at: stack.top)
    }
    output.append(0x7D)
  }

  private mutating func writeString(_ text: String) {
    output.append(0x22)
    for byte in text.utf8 {
      switch byte {
      case 0x22: output += [0x5C, 0x22]
      case 0x5C: output += [0x5C, 0x5C]
      case 0x0A: output += [0x5C, 0x6E]
      case 0x0D: output += [0x5C, 0x72]
      case 0x09: output += [0x5C, 0x74]
      case 0..<0x20: output += Array(String(format: "\\u%04x", byte).utf8)
      default: output.append(byte)
      }
    }
    output.append(0x22)
  }
}
