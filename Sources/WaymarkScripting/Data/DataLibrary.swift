import LuaKit

/// `waymark.data` (`read`, `json`, `csv`, `geojson`: files under ``DataFolders``) and
/// `waymark.json` (`decode`, `encode`, the `null` sentinel), installed into a script's or a
/// plugin's `waymark` table. Every value returned is plain Lua data, a fresh copy at each call.
package enum DataLibrary {
  /// The functions and values of `waymark.data` and `waymark.json`, sorted.
  package static let members = [
    "data": ["csv", "geojson", "json", "read"], "json": ["decode", "encode", "null"],
  ]

  /// Adds `data` and `json` to the `waymark` table of the environment at `environment`
  /// (making the table if the environment has none). Stack: 0.
  package static func install(into environment: Int32, on stack: LuaStack, folders: DataFolders) throws(LuaError) {
    let environment = stack.absoluteIndex(environment)
    try stack.run(nullSource, chunkName: "=(waymark.json)", results: 1)
    let null = stack.ref()
    if stack.rawGetField("waymark", ofTableAt: environment) != .table {
      stack.pop()
      stack.newTable()
      stack.pushValue(at: -1)
      stack.rawSetField("waymark", ofTableAt: environment)
    }
    stack.newTable()
    register("waymark.data.read", on: stack) { context in
      let (_, bytes) = try file(context, folders: folders)
      context.stack.push(bytes: bytes)
      return 1
    }
    register("waymark.data.json", on: stack) { context in
      let (path, bytes) = try file(context, folders: folders)
      try decode(bytes, named: path, nullArgument: 2, context)
      return 1
    }
    register("waymark.data.geojson", on: stack) { context in
      let (path, bytes) = try file(context, folders: folders)
      try decode(bytes, named: path, nullArgument: 2, context)
      try GeoJSON.requireObject(at: -1, on: context.stack, file: path)
      return 1
    }
    register("waymark.data.csv", on: stack) { context in
      let separator = try csvSeparator(context)
      let (path, bytes) = try file(context, folders: folders)
      try pushCSV(bytes, named: path, separator: separator, context)
      return 1
    }
    stack.rawSetField("data", ofTableAt: -2)
    stack.newTable()
    register("waymark.json.decode", on: stack) { context in
      let text = context.stack.type(at: 1) == .string ? context.stack.bytes(at: 1) : nil
      guard let text else { throw context.typeError(1, expected: "string") }
      try decode(text, named: nil, nullArgument: 2, context)
      return 1
    }
    register("waymark.json.encode", on: stack) { context in
      let stack = context.stack
      if stack.top < 1 { stack.pushNil() }
      stack.push(null)
      let text = try JSONWriter.encode(at: 1, on: stack, null: stack.top)
      stack.push(bytes: text)
      return 1
    }
    stack.push(null)
    stack.rawSetField("null", ofTableAt: -2)
    stack.rawSetField("json", ofTableAt: -2)
    stack.pop()
  }

  /// The path argument and the bytes of its file.
  private static func file(_ context: LuaCallContext, folders: DataFolders) throws(LuaFunctionError)
    -> (String, [UInt8])
  {
    let path = try context.checkString(1)
    do {
      return (path, try folders.read(path))
    } catch {
      throw LuaFunctionError("\(context.functionName): \(error.description)")
    }
  }

  /// Decodes JSON text and pushes the value; argument `nullArgument`, when given, is what
  /// `null` becomes. Stack: +1.
  private static func decode(_ text: [UInt8], named name: String?, nullArgument: Int32, _ context: LuaCallContext)
    throws(LuaFunctionError)
  {
    let stack = context.stack
    let null: Int32? =
      stack.type(at: nullArgument) == .none || stack.type(at: nullArgument) == .nil ? nil : nullArgument
    do {
      try (text + [0]).withUnsafeBufferPointer { buffer throws(JSONError) in
        try JSONReader.push(buffer, on: stack, null: null)
      }
    } catch {
      let place = name.map { "\($0):\(error.line):\(error.column)" } ?? "line \(error.line), column \(error.column)"
      throw LuaFunctionError("\(context.functionName): \(place): \(error.message)")
    }
  }

  /// Sets `t[last part of name]` (raw) to a Swift function, for the table on top. Stack: 0.
  private static func register(_ name: String, on stack: LuaStack, _ body: @escaping LuaFunctionBody) {
    stack.push(function: name, body)
    stack.rawSetField(String(name.split(separator: ".").last!), ofTableAt: -2)
  }

  /// The separator of `waymark.data.csv`'s options (argument 2, `{ separator = ";" }`): one
  /// byte other than a quote or a line break; a comma without options.
  private static func csvSeparator(_ context: LuaCallContext) throws(LuaFunctionError) -> UInt8 {
    let stack = context.stack
    switch stack.type(at: 2) {
    case .none, .nil: return CSVReader.comma
    case .table: break
    default: throw context.typeError(2, expected: "an options table { separator = }")
    }
    let what = "\(context.functionName) options"
    try LuaValues.requireKnownFields(ofTableAt: 2, on: stack, allowed: ["separator"], what: what)
    return try stack.withStackBalance { () throws(LuaFunctionError) -> UInt8 in
      guard stack.rawGetField("separator", ofTableAt: 2) != .nil else { return CSVReader.comma }
      let text = try LuaValues.string(at: -1, on: stack, field: "\(what).separator")
      let bytes = Array(text.utf8)
      guard bytes.count == 1, ![UInt8(ascii: "\""), 0x0A, 0x0D].contains(bytes[0]) else {
        throw LuaFunctionError(
          "\(what).separator: expected one byte other than a quote or a line break (\";\", \"\\t\"), got "
            + LuaMapBridge.quoted(text))
      }
      return bytes[0]
    }
  }

  /// Pushes the rows of a CSV file whose fields `separator` separates, each a table keyed by
  /// the header's names. Stack: +1.
  private static func pushCSV(
    _ bytes: [UInt8], named name: String, separator: UInt8, _ context: LuaCallContext
  ) throws(LuaFunctionError) {
    let stack = context.stack
    let table: (header: [String], rows: [CSVReader.Record])
    do {
      table = try CSVReader.read(bytes, separator: separator)
    } catch {
      throw LuaFunctionError("\(context.functionName): \(name):\(error.line):\(error.column): \(error.message)")
    }
    stack.newTable(arrayCount: Int32(clamping: table.rows.count))
    for (index, row) in table.rows.enumerated() {
      stack.newTable(fieldCount: Int32(clamping: table.header.count))
      for (key, field) in zip(table.header, row.fields) {
        stack.push(bytes: field)
        stack.rawSetField(key, ofTableAt: -2)
      }
      stack.rawSetIndex(index + 1, ofTableAt: -2)
    }
  }

  /// The `waymark.json.null` sentinel: a table that says so when printed and refuses fields.
  private static let nullSource = """
    return setmetatable({}, {
      __tostring = function() return "null" end,
      __newindex = function() error("waymark.json.null cannot be changed", 2) end,
      __metatable = "waymark.json.null",
    })
    """
}
