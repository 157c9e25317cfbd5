/// A table key LuaKit can round-trip: what ``LuaStack/sortedKeys(ofTableAt:)`` returns.
///
/// Orders booleans, then numbers (integers and floats by value), then
/// strings (by UTF-8 bytes): a deterministic order for iteration.
package enum LuaKey: Hashable, Sendable, Comparable {
  /// A boolean key.
  case boolean(Bool)
  /// An integer key (array indexes are these).
  case integer(Int)
  /// A float key that is not an integer.
  case number(Double)
  /// A string key.
  case string(String)

  private var rank: Int {
    switch self {
    case .boolean: 0
    case .integer, .number: 1
    case .string: 2
    }
  }

  /// The deterministic order described on the type.
  package static func < (a: LuaKey, b: LuaKey) -> Bool {
    switch (a, b) {
    case (.boolean(let x), .boolean(let y)): return !x && y
    case (.integer(let x), .integer(let y)): return x < y
    case (.integer(let x), .number(let y)): return Double(x) < y
    case (.number(let x), .integer(let y)): return x < Double(y)
    case (.number(let x), .number(let y)): return x < y
    case (.string(let x), .string(let y)): return Array(x.utf8).lexicographicallyPrecedes(y.utf8)
    default: return a.rank < b.rank
    }
  }
}

extension LuaStack {
  // MARK: Create

  /// Pushes a new empty table, preallocated for `arrayCount` array items and
  /// `fieldCount` other fields. Stack: +1.
  package func newTable(arrayCount: Int32 = 0, fieldCount: Int32 = 0) {
    LuaC.newTable(L, arrayCount, fieldCount)
  }

  // MARK: Non-raw access (metamethods run, protected)

  /// Pushes `t[key]` for the value at `index` (running `__index`). Stack: +1.
  ///
  /// Errors (a non-indexable value, a failing `__index`) are thrown, with
  /// nothing pushed.
  @discardableResult
  package func getField(_ key: String, ofTableAt index: Int32) throws(LuaError) -> LuaType {
    try checked(LuaC.protectedGetField(L, index, key))
  }

  /// Sets `t[key] = v` where v is the top value (popped), running `__newindex`. Stack: -1.
  package func setField(_ key: String, ofTableAt index: Int32) throws(LuaError) {
    _ = try checked(LuaC.protectedSetField(L, index, key), pushes: false)
  }

  /// Pushes `t[n]` (running `__index`). Stack: +1; nothing pushed on error.
  @discardableResult
  package func getIndex(_ n: Int, ofTableAt index: Int32) throws(LuaError) -> LuaType {
    try checked(LuaC.protectedGetIndex(L, index, n))
  }

  /// Sets `t[n] = v` where v is the top value (popped), running `__newindex`. Stack: -1.
  package func setIndex(_ n: Int, ofTableAt index: Int32) throws(LuaError) {
    _ = try checked(LuaC.protectedSetIndex(L, index, n), pushes: false)
  }

  private func checked(_ status: Int32, pushes: Bool = true) throws(LuaError) -> LuaType {
    guard status == LuaStatus.ok.rawValue else {
      let error = LuaError(thread: L, status: status, timedOut: false)
      pop()
      throw error
    }
    return pushes ? type(at: -1) : .none
  }

  // MARK: Raw access (no metamethods; the value must be a table)

  /// Pushes `rawget(t, key)`. Stack: +1. Precondition: a table at `index`.
  @discardableResult
  package func rawGetField(_ key: String, ofTableAt index: Int32) -> LuaType {
    let t = requireTable(index)
    push(key)
    return LuaType(rawValue: LuaC.rawGet(L, t))
  }

  /// `rawset(t, key, v)` with v the top value (popped). Stack: -1.
  package func rawSetField(_ key: String, ofTableAt index: Int32) {
    let t = requireTable(index)
    push(key)
    insert(at: -2)
    LuaC.rawSet(L, t)
  }

  /// Pushes `rawget(t, n)`. Stack: +1. Precondition: a table at `index`.
  @discardableResult
  package func rawGetIndex(_ n: Int, ofTableAt index: Int32) -> LuaType {
    LuaType(rawValue: LuaC.rawGetIndex(L, requireTable(index), n))
  }

  /// `rawset(t, n, v)` with v the top value (popped). Stack: -1.
  package func rawSetIndex(_ n: Int, ofTableAt index: Int32) {
    LuaC.rawSetIndex(L, requireTable(index), n)
  }

  /// Pushes `rawget(t, key)`. Stack: +1.
  @discardableResult
  package func rawGet(_ key: LuaKey, ofTableAt index: Int32) -> LuaType {
    let t = requireTable(index)
    push(key)
    return LuaType(rawValue: LuaC.rawGet(L, t))
  }

  /// Replaces the key on top with `rawget(t, key)`, any key type. Stack: 0.
  /// Precondition: a table at `index`.
  @discardableResult
  package func rawGet(ofTableAt index: Int32) -> LuaType {
    LuaType(rawValue: LuaC.rawGet(L, requireTable(index)))
  }

  /// `rawset(t, k, v)` with k below v on top (both popped), any key type but nil or NaN.
  /// Stack: -2. Precondition: a table at `index`.
  package func rawSet(ofTableAt index: Int32) {
    precondition(type(at: -2) != .nil, "rawSet(ofTableAt:) with a nil key")
    LuaC.rawSet(L, requireTable(index))
  }

  /// `(t[a], t[b])` (raw) when the value at `index` is a table holding exactly the keys `a`
  /// and `b`, both numbers (`{ lat = 1, lng = 2 }`); nil for anything else, read with no
  /// more care: the fast path of a reader whose slow path explains what is wrong. Stack: 0.
  package func numberPair(at index: Int32, _ a: StaticString, _ b: StaticString) -> (Double, Double)? {
    LuaC.numberPair(L, index, a, b)
  }

  /// Pushes `count` slots, nil, and copies into them the fields of the table at `index`, in
  /// one pass over its keys: the value of a string key goes to slot `slots[key]`, the
  /// integer the table at `slots` holds for it (0 ..< `count`, at most 63 slots). Answers the
  /// index of slot 0 and the bit mask of the slots set; nil, having pushed nothing, when the
  /// table has a string key `slots` does not hold, a number key or a boolean key (keys of
  /// other types are ignored). Stack: +`count`, or 0 when nil.
  package func gatherFields(ofTableAt index: Int32, slotsAt slots: Int32, count: Int32)
    -> (base: Int32, present: UInt64)?
  {
    precondition(count >= 0 && count <= 63, "gatherFields: at most 63 slots")
    let table = requireTable(index), slots = requireTable(slots)
    let base = top + 1
    guard LuaC.checkStack(L, count + 4) else { return nil }
    LuaC.setTop(L, top + count)
    let present = LuaC.gatherFields(L, table, slots, base, count)
    guard present >= 0 else {
      LuaC.setTop(L, base - 1)
      return nil
    }
    return (base, UInt64(present))
  }

  /// Whether every key of the table at `index` is an integer in 1 ... `count`, or of a type
  /// other than string, number and boolean: one pass over its keys. Stack: 0.
  package func isList(ofTableAt index: Int32, count: Int) -> Bool {
    let table = requireTable(index)
    guard LuaC.checkStack(L, 3) else { return false }
    return LuaC.isList(L, table, count)
  }

  /// Pushes a new list of `t[key]` (raw) for each of `keys`, `t` the table at `index` (nil:
  /// none); answers how many were not tables, whose places stay empty for the caller to
  /// fill. Stack: +1.
  package func pushList(fromTableAt index: Int32?, keys: UnsafeBufferPointer<Int64>) -> Int {
    let store = index.map { requireTable($0) } ?? 0
    return LuaC.pushList(L, store, keys)
  }

  /// Replaces the list of items on top by a cluster `{ position =, count =, items = }`: the
  /// first item's own `position` table when its `lat` and `lng` are the given ones, else a
  /// new one. `keys` is where the strings "position", "count", "items", "lat" and "lng"
  /// are, in that order (pushed once for many clusters). Stack: 0.
  package func wrapCluster(keysAt keys: Int32, count: Int, latitude: Double, longitude: Double) {
    LuaC.wrapCluster(L, absoluteIndex(keys), count, latitude, longitude)
  }

  /// The raw length (`#t` without `__len`) of a table or string.
  package func rawLength(at index: Int32) -> Int { LuaC.rawLength(L, index) }

  /// Pushes a key. Stack: +1.
  package func push(_ key: LuaKey) {
    switch key {
    case .boolean(let b): push(b)
    case .integer(let n): push(n)
    case .number(let x): push(x)
    case .string(let s): push(s)
    }
  }

  // MARK: Iteration

  /// Calls `body(keyIndex, valueIndex)` for each raw pair, in Lua's `next`
  /// order, which is NOT stable between runs: sort if order matters (see
  /// ``sortedKeys(ofTableAt:)``). `body` must leave the stack balanced and
  /// must not add keys to the table.
  package func forEachRawPair<E: Error>(
    ofTableAt index: Int32, _ body: (_ key: Int32, _ value: Int32) throws(E) -> Void
  ) throws(E) {
    let t = requireTable(index)
    pushNil()
    while LuaC.next(L, t) {
      let keyIndex = top - 1
      do {
        try body(keyIndex, top)
      } catch {
        setTop(keyIndex - 1)
        throw error
      }
      setTop(keyIndex)
    }
  }

  /// The table's keys that are booleans, numbers or strings, sorted in
  /// ``LuaKey`` order. Other keys (tables, functions...) are skipped.
  package func sortedKeys(ofTableAt index: Int32) -> [LuaKey] {
    sortedKeys(ofTableAt: index, atMost: .max) ?? []
  }

  /// The table's keys as ``sortedKeys(ofTableAt:)`` gives them, or nil as soon as the table
  /// turns out to have more than `limit` pairs: a host reading what Lua code gave it stops
  /// before copying or sorting a huge table.
  package func sortedKeys(ofTableAt index: Int32, atMost limit: Int) -> [LuaKey]? {
    var keys: [LuaKey] = []
    var pairs = 0
    struct TooMany: Error {}
    do {
      try forEachRawPair(ofTableAt: index) { keyIndex, _ throws(TooMany) in
        pairs += 1
        guard pairs <= limit else { throw TooMany() }
        appendKey(at: keyIndex, to: &keys)
      }
    } catch {
      return nil
    }
    return keys.sorted()
  }

  private func appendKey(at keyIndex: Int32, to keys: inout [LuaKey]) {
    switch type(at: keyIndex) {
    case .boolean: keys.append(.boolean(boolean(at: keyIndex)))
    case .number:
      if isInteger(at: keyIndex), let n = integer(at: keyIndex) {
        keys.append(.integer(n))
      } else if let x = number(at: keyIndex) {
        keys.append(.number(x))
      }
    case .string: keys.append(.string(LuaC.string(L, keyIndex)))
    default: break
    }
  }

  /// Pushes a new table with the same raw pairs as the table at `index`
  /// (a shallow copy, without metatable). Stack: +1.
  package func pushShallowCopy(ofTableAt index: Int32) {
    let t = requireTable(index)
    newTable()
    let copy = top
    forEachRawPair(ofTableAt: t) { key, value in
      pushValue(at: key)
      pushValue(at: value)
      LuaC.rawSet(L, copy)
    }
  }

  private func requireTable(_ index: Int32) -> Int32 {
    precondition(
      type(at: index) == .table, "expected a table at index \(index), got \(typeName(at: index))")
    return absoluteIndex(index)
  }
}
