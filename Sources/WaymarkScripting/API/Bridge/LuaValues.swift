import LuaKit
import WaymarkCore

/// Reading and writing the plain Lua shapes of the map API: coordinates `{ lat =, lng = }`,
/// points `{ x =, y = }`, cameras and option tables. Every read error names the field
/// (`animate.duration: expected a number, got string`).
package enum LuaValues {
  // MARK: Push

  /// Pushes `{ lat =, lng = }`. Stack: +1.
  static func push(_ coordinate: Coordinate, on stack: LuaStack) {
    stack.newTable(fieldCount: 2)
    stack.push(coordinate.latitude)
    stack.rawSetField("lat", ofTableAt: -2)
    stack.push(coordinate.longitude)
    stack.rawSetField("lng", ofTableAt: -2)
  }

  /// Pushes `{ x =, y = }`. Stack: +1.
  static func push(_ point: Point, on stack: LuaStack) {
    stack.newTable(fieldCount: 2)
    stack.push(point.x)
    stack.rawSetField("x", ofTableAt: -2)
    stack.push(point.y)
    stack.rawSetField("y", ofTableAt: -2)
  }

  /// Pushes `{ target = { lat, lng }, zoom, bearing, tilt }`. Stack: +1.
  static func push(_ camera: CameraPosition, on stack: LuaStack) {
    stack.newTable(fieldCount: 4)
    push(camera.target, on: stack)
    stack.rawSetField("target", ofTableAt: -2)
    for (key, value) in [("zoom", camera.zoom), ("bearing", camera.bearing), ("tilt", camera.tilt)] {
      stack.push(value)
      stack.rawSetField(key, ofTableAt: -2)
    }
  }

  /// Pushes a callback's argument as its handler receives it (docs/plugins.md, "Handlers"):
  /// markers and overlays as their userdata, capabilities as a set
  /// `{ advanced_markers = true }`, features as `{ { place_id = } }`, clusters and their
  /// items as `marker.cluster` and `marker.cluster_item` show them. Stack: +1.
  static func push(_ value: CallbackValue, bridge: LuaMapBridge, on stack: LuaStack) {
    switch value {
    case .boolean(let flag): stack.push(flag)
    case .camera(let camera): push(camera, on: stack)
    case .coordinate(let coordinate): push(coordinate, on: stack)
    case .marker(let marker): bridge.push(marker, on: stack)
    case .overlay(let overlay): bridge.push(overlay, on: stack)
    case .string(let text): stack.push(text)
    case .capabilities(let capabilities):
      stack.newTable()
      for name in capabilities.names {
        stack.push(true)
        stack.rawSetField(name, ofTableAt: -2)
      }
    case .features(let features):
      stack.newTable(arrayCount: Int32(clamping: features.count))
      for (i, feature) in features.enumerated() {
        stack.newTable()
        stack.push(feature.placeID)
        stack.rawSetField("place_id", ofTableAt: -2)
        stack.rawSetIndex(i + 1, ofTableAt: -2)
      }
    case .cluster(let cluster): LuaAPI.pushCluster(cluster, bridge: bridge, on: stack)
    case .clusterItem(let item): LuaAPI.pushClusterItem(item, bridge: bridge, on: stack)
    }
  }

  /// Pushes a string or nil. Stack: +1.
  static func push(_ string: String?, on stack: LuaStack) {
    if let string { stack.push(string) } else { stack.pushNil() }
  }

  // MARK: Read

  /// `expected <what>, got <type>` for the value at `index`.
  package static func typeError(_ field: String, expected: String, at index: Int32, on stack: LuaStack)
    -> LuaFunctionError
  {
    LuaFunctionError("\(field): expected \(expected), got \(stack.typeName(at: index))")
  }

  /// Whether the value at `index` is nil or absent.
  package static func isNil(_ index: Int32, on stack: LuaStack) -> Bool {
    let type = stack.type(at: index)
    return type == .nil || type == .none
  }

  /// A number at `index`.
  package static func number(at index: Int32, on stack: LuaStack, field: String) throws(LuaFunctionError)
    -> Double
  {
    guard let value = stack.number(at: index) else {
      throw typeError(field, expected: "a number", at: index, on: stack)
    }
    return value
  }

  /// A string at `index`.
  /// The longest string a map API call copies (``TextLimits/text``); the map checks finer
  /// limits for names. Longer strings are refused before they are copied.
  static let longestString = TextLimits.text

  /// A string at `index`, of at most ``longestString`` bytes.
  static func string(at index: Int32, on stack: LuaStack, field: String) throws(LuaFunctionError)
    -> String
  {
    guard let length = stack.byteCount(at: index) else {
      throw typeError(field, expected: "a string", at: index, on: stack)
    }
    guard length <= longestString else {
      throw LuaFunctionError("\(field): a string of \(length) bytes is longer than \(longestString) bytes")
    }
    return stack.string(at: index) ?? ""
  }

  /// A string or nil at `index`.
  package static func optionalString(at index: Int32, on stack: LuaStack, field: String)
    throws(LuaFunctionError) -> String?
  {
    isNil(index, on: stack) ? nil : try string(at: index, on: stack, field: field)
  }

  /// A boolean at `index`.
  static func boolean(at index: Int32, on stack: LuaStack, field: String) throws(LuaFunctionError)
    -> Bool
  {
    guard stack.type(at: index) == .boolean else {
      throw typeError(field, expected: "a boolean", at: index, on: stack)
    }
    return stack.boolean(at: index)
  }

  /// A z-index (markers and overlays, R4, R15): a whole number that fits 32 bits.
  static func zIndex(at index: Int32, on stack: LuaStack, field: String) throws(LuaFunctionError) -> Int32 {
    let value = try LuaValues.number(at: index, on: stack, field: field)
    guard let n = stack.integer(at: index), let z = Int32(exactly: n) else {
      throw LuaFunctionError("\(field): \(formatNumber(value)) is not a 32-bit whole number")
    }
    return z
  }

  /// A coordinate: `{ lat =, lng = }` or `{ lat, lng }`, finite, latitude within -90...90.
  static func coordinate(at index: Int32, on stack: LuaStack, field: String)
    throws(LuaFunctionError) -> Coordinate
  {
    // `{ lat = number, lng = number }` read in one call (a marker's position in a bulk load);
    // any other shape takes the reader that accepts `{ lat, lng }` and names what is wrong.
    let (a, b): (Double, Double)
    if let fast = stack.numberPair(at: index, "lat", "lng") {
      (a, b) = fast
    } else {
      (a, b) = try pair(at: index, on: stack, field: field, names: ("lat", "lng"))
    }
    do {
      return try Coordinate(latitude: a, longitude: b).validated(field)
    } catch {
      throw error.luaError
    }
  }

  /// A screen point: `{ x =, y = }` or `{ x, y }`.
  static func point(at index: Int32, on stack: LuaStack, field: String) throws(LuaFunctionError)
    -> Point
  {
    let (x, y) = try pair(at: index, on: stack, field: field, names: ("x", "y"))
    return Point(x: x, y: y)
  }

  /// A movement in screen points (a pan, a scroll): `{ x =, y = }` or `{ x, y }`, a missing
  /// one 0 (`{ x = 100 }` is 100 points to the right).
  static func offset(at index: Int32, on stack: LuaStack, field: String) throws(LuaFunctionError) -> Point {
    let (x, y) = try pair(at: index, on: stack, field: field, names: ("x", "y"), missingIsZero: true)
    return Point(x: x, y: y)
  }

  private static func pair(
    at index: Int32, on stack: LuaStack, field: String, names: (String, String), missingIsZero: Bool = false
  ) throws(LuaFunctionError) -> (Double, Double) {
    guard stack.type(at: index) == .table else {
      throw typeError(field, expected: pairShape(names), at: index, on: stack)
    }
    try requireKnownFields(ofTableAt: index, on: stack, allowed: [names.0, names.1], positions: 2, what: field)
    let first = try component(
      names.0, or: 1, ofTableAt: index, on: stack, field: field, names: names, missingIsZero: missingIsZero)
    let second = try component(
      names.1, or: 2, ofTableAt: index, on: stack, field: field, names: names, missingIsZero: missingIsZero)
    return (first, second)
  }

  /// `{ lat = number, lng = number }`, for messages.
  private static func pairShape(_ names: (String, String)) -> String {
    "{ \(names.0) = number, \(names.1) = number }"
  }

  /// One number of a pair: `table[name]`, else `table[position]`; 0 when both are missing
  /// and `missingIsZero`.
  private static func component(
    _ name: String, or position: Int, ofTableAt index: Int32, on stack: LuaStack, field: String,
    names: (String, String), missingIsZero: Bool
  ) throws(LuaFunctionError) -> Double {
    try stack.withStackBalance { () throws(LuaFunctionError) -> Double in
      var type = stack.rawGetField(name, ofTableAt: index)
      if type == .nil {
        stack.pop()
        type = stack.rawGetIndex(position, ofTableAt: index)
      }
      if type == .nil && missingIsZero { return 0 }
      guard let value = stack.number(at: -1) else {
        let got = type == .nil ? "no \(name)" : stack.typeName(at: -1)
        throw LuaFunctionError("\(field).\(name): expected a number in \(pairShape(names)), got \(got)")
      }
      return value
    }
  }

  /// Calls `body` with the index of `table[key]` (raw) pushed, then pops it.
  static func withField<R>(
    _ key: String, ofTableAt table: Int32, on stack: LuaStack,
    _ body: (Int32) throws(LuaFunctionError) -> R
  ) throws(LuaFunctionError) -> R {
    try stack.withStackBalance { () throws(LuaFunctionError) -> R in
      stack.rawGetField(key, ofTableAt: table)
      return try body(stack.top)
    }
  }

  /// The most fields an options table may have (any more is a mistake, and the host would
  /// copy and sort them all before finding it).
  package static let maxFields = 256
  /// The most coordinates one call reads from its lists in all (a path and its holes, a
  /// fit, a layer's boundaries): the host's work on a table stays bounded.
  static let maxCoordinates = 100_000

  /// The keys of an options table, sorted, or an error when it has more than ``maxFields``
  /// (found before any key is copied past the limit).
  static func fieldKeys(ofTableAt index: Int32, on stack: LuaStack, what: String) throws(LuaFunctionError)
    -> [LuaKey]
  {
    guard let keys = stack.sortedKeys(ofTableAt: index, atMost: maxFields) else {
      throw LuaFunctionError("\(what): the table has more than \(maxFields) fields")
    }
    return keys
  }

  /// The raw length of the list at `index`, taken from `budget` (what one call may still
  /// read); throws when it does not fit, before anything is read.
  package static func listLength(at index: Int32, on stack: LuaStack, field: String, budget: inout Int)
    throws(LuaFunctionError) -> Int
  {
    let count = stack.rawLength(at: index)
    guard count <= budget else {
      throw LuaFunctionError("\(field): a list of \(count) items is more than this call reads (\(budget) left)")
    }
    budget -= count
    return count
  }

  /// Throws if the table at `index` has a key other than the names in `allowed` and the
  /// list places `1...positions`, suggesting the closest allowed name (`animate options:
  /// unknown field 'duratoin'; did you mean duration?`, `marker.position: unknown field [3]`).
  /// Every option table, top-level or nested, is checked with it.
  ///
  /// A first pass copies nothing (a list of 100,000 items, an options table in a loop): only
  /// when it meets a key not allowed are the keys copied and sorted, so that the key named is
  /// the first in key order whatever the table's order.
  static func requireKnownFields(
    ofTableAt index: Int32, on stack: LuaStack, allowed: [String], positions: Int = 0, what: String
  ) throws(LuaFunctionError) {
    guard !hasOnlyKnownKeys(ofTableAt: index, on: stack, allowed: allowed, positions: positions) else { return }
    // No names allowed: the table must be a list, and "expected one of" would list nothing.
    if allowed.isEmpty { return try requireList(ofTableAt: index, on: stack, count: positions, what: what) }
    let expected = "; expected one of \(allowed.joined(separator: ", "))"
    guard let keys = stack.sortedKeys(ofTableAt: index, atMost: maxFields + positions) else {
      throw LuaFunctionError("\(what): the table has more than \(maxFields) fields")
    }
    for key in keys {
      switch key {
      case .string(let name) where !allowed.contains(name):
        let hint = Suggestion.hint(for: name, among: allowed, otherwise: allowed.count <= 8 ? expected : "")
        throw LuaFunctionError("\(what): unknown field '\(name)'\(hint)")
      case .integer(let n) where n < 1 || n > positions:
        throw LuaFunctionError("\(what): unknown field [\(n)]\(expected)")
      case .number(let x): throw LuaFunctionError("\(what): unknown field [\(formatNumber(x))]\(expected)")
      case .boolean(let flag): throw LuaFunctionError("\(what): unknown field [\(flag)]\(expected)")
      default: continue
      }
    }
  }

  /// Throws unless the keys of the table at `index` are exactly its list places `1...count`
  /// (`count`: its length when nil), naming the first other key in key order:
  /// `add_markers: features: expected a list, got a table with key 'a'`. `expected` says
  /// what the list holds.
  static func requireList(
    ofTableAt index: Int32, on stack: LuaStack, count: Int? = nil, what: String, expected: String = "a list"
  ) throws(LuaFunctionError) {
    let positions = count ?? stack.rawLength(at: index)
    guard !stack.isList(ofTableAt: index, count: positions) else { return }
    guard let keys = stack.sortedKeys(ofTableAt: index, atMost: maxFields + positions) else {
      throw LuaFunctionError("\(what): expected \(expected), got a table with more than \(maxFields) other keys")
    }
    for key in keys {
      let shown: String
      switch key {
      case .integer(let n) where n >= 1 && n <= positions: continue
      case .integer(let n): shown = "[\(n)]"
      case .number(let x): shown = "[\(formatNumber(x))]"
      case .boolean(let flag): shown = "[\(flag)]"
      case .string(let name): shown = "'\(name)'"
      }
      throw LuaFunctionError("\(what): expected \(expected), got a table with key \(shown)")
    }
  }

  /// Whether every key of the table at `index` is a name in `allowed`, a list place
  /// `1...positions`, or of a type `requireKnownFields` ignores (a table, a function...).
  private static func hasOnlyKnownKeys(
    ofTableAt index: Int32, on stack: LuaStack, allowed: [String], positions: Int
  ) -> Bool {
    struct Unknown: Error {}
    do {
      try stack.forEachRawPair(ofTableAt: index) { key, _ throws(Unknown) in
        switch stack.type(at: key) {
        case .string: guard let name = stack.string(at: key), allowed.contains(name) else { throw Unknown() }
        case .number:
          guard stack.isInteger(at: key), let n = stack.integer(at: key), n >= 1, n <= positions else {
            throw Unknown()
          }
        case .boolean: throw Unknown()
        default: return
        }
      }
    } catch {
      return false
    }
    return true
  }
}
