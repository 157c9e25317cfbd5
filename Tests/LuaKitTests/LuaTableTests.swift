import LuaKit
import Testing

/// Tables: raw and non-raw access, deterministic iteration, library copies
/// and reproducible random numbers.
@Suite struct LuaTableTests {
  @Test func fieldsAndIndexesRoundTrip() throws {
    let state = try LuaState()
    let stack = state.stack
    stack.newTable()
    stack.push("Melbourne")
    try stack.setField("title", ofTableAt: -2)
    stack.push(1.5)
    try stack.setIndex(3, ofTableAt: -2)
    #expect(try stack.getField("title", ofTableAt: -1) == .string)
    #expect(stack.string(at: -1) == "Melbourne")
    stack.pop()
    #expect(stack.rawGetIndex(3, ofTableAt: -1) == .number)
    #expect(stack.number(at: -1) == 1.5)
    #expect(stack.integer(at: -1) == nil)
    stack.pop()
    #expect(stack.top == 1)
  }

  @Test func nonRawAccessRunsMetamethodsAndCatchesTheirErrors() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run(
      "return setmetatable({}, {__index = function(t, k) return k .. '!' end, __newindex = function() error('read-only') end})",
      results: 1)
    try stack.getField("hi", ofTableAt: -1)
    #expect(stack.string(at: -1) == "hi!")
    stack.pop()
    #expect(stack.rawGetField("hi", ofTableAt: -1) == .nil)
    stack.pop()
    stack.push(1)
    let error = try #require(throws: LuaError.self) { try stack.setField("x", ofTableAt: -2) }
    #expect(error.message.hasSuffix("read-only"))
    #expect(stack.top == 1)
    stack.push(5)
    #expect(throws: LuaError.self) { try stack.getField("x", ofTableAt: -1) }
    #expect(stack.top == 2)
  }

  @Test func stringsAreByteSafe() throws {
    let state = try LuaState()
    let stack = state.stack
    stack.push("a\u{0}b é")
    #expect(stack.rawLength(at: -1) == 6)
    #expect(stack.string(at: -1) == "a\u{0}b é")
    stack.push(bytes: [0xFF, 0x00])
    #expect(stack.bytes(at: -1) == [0xFF, 0x00])
    #expect(stack.string(at: 2) == "\u{FFFD}\u{0}")
  }

  @Test func sortedKeysGiveADeterministicOrder() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run(
      "return {zeta = 1, alpha = 2, [3] = 'c', [1] = 'a', [2.5] = 'x', [true] = 0, [{}] = 'skipped'}",
      results: 1)
    #expect(
      stack.sortedKeys(ofTableAt: -1) == [
        .boolean(true), .integer(1), .number(2.5), .integer(3), .string("alpha"), .string("zeta"),
      ])
    stack.rawGet(.number(2.5), ofTableAt: -1)
    #expect(stack.string(at: -1) == "x")
    stack.pop()
    var count = 0
    stack.forEachRawPair(ofTableAt: -1) { _, _ in count += 1 }
    #expect(count == 7)
    #expect(stack.top == 1)
  }

  @Test func gatherFieldsCopiesEachKnownFieldToItsSlotInOnePass() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run(
      "return {title = 'Cafe', position = {}, [{}] = 'ignored'}, {position = 0, title = 2, user_data = 3}", results: 2)
    let (base, mask) = try #require(stack.gatherFields(ofTableAt: 1, slotsAt: 2, count: 4))
    #expect(base == 3 && stack.top == 6)
    #expect(mask == 0b101)  // position (0) and title (2); slots 1 and 3 stay nil
    #expect(stack.type(at: base) == .table)
    #expect(stack.type(at: base + 1) == .nil)
    #expect(stack.string(at: base + 2) == "Cafe")
    #expect(stack.type(at: base + 3) == .nil)
  }

  @Test func gatherFieldsRefusesAKeyThatIsNoFieldLeavingTheStackAsItWas() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run("return {position = 0, title = 1}", results: 1)
    for table in ["{titel = 'typo'}", "{[1] = 'list'}", "{[true] = 'flag'}", "{title = 'x', [2.5] = 1}"] {
      try stack.run("return \(table)", results: 1)
      #expect(stack.gatherFields(ofTableAt: 2, slotsAt: 1, count: 2)?.present == nil, "\(table)")
      #expect(stack.top == 2)
      stack.pop()
    }
    // A slot the caller did not make room for is refused too.
    try stack.run("return {title = 'x'}", results: 1)
    #expect(stack.gatherFields(ofTableAt: 2, slotsAt: 1, count: 1)?.present == nil)
    #expect(stack.top == 2)
  }

  @Test func isListAcceptsPositionsOneToCountAndKeysOfIgnoredTypesOnly() throws {
    let state = try LuaState()
    let stack = state.stack
    let cases: [(table: String, count: Int, isList: Bool)] = [
      ("{}", 0, true), ("{10, 20, 30}", 3, true), ("{10, 20, [print] = 1}", 2, true),
      ("{10, 20, 30}", 2, false), ("{10, 20, x = 1}", 2, false), ("{10, [0] = 1}", 1, false),
      ("{10, [1.5] = 1}", 1, false), ("{10, [true] = 1}", 1, false), ("{[2.0] = 1, [1] = 1}", 2, true),
    ]
    for (table, count, isList) in cases {
      try stack.run("return \(table)", results: 1)
      #expect(stack.isList(ofTableAt: 1, count: count) == isList, "\(table) with \(count) positions")
      #expect(stack.top == 1)
      stack.pop()
    }
  }

  @Test func withStackBalanceDropsTemporaries() throws {
    let state = try LuaState()
    let stack = state.stack
    stack.push(1)
    let value = stack.withStackBalance {
      stack.push(2)
      stack.push(3)
      return stack.integer(at: -1)
    }
    #expect(value == 3)
    #expect(stack.top == 1)
  }

  @Test func libraryCopyIsIndependentOfTheSharedTable() throws {
    let state = try LuaState()
    let stack = state.stack
    stack.newTable()  // a sandbox environment
    #expect(stack.pushLibraryCopy(named: "string"))
    stack.rawSetField("string", ofTableAt: 1)
    try stack.run("string.rep = nil return string.upper('x')", environmentAt: 1, results: 1)
    #expect(stack.string(at: -1) == "X")
    stack.pop()
    try stack.run("return string.rep('ab', 2)", results: 1)
    #expect(stack.string(at: -1) == "abab")
    #expect(!stack.pushLibraryCopy(named: "no_such_library"))
  }

  @Test func librariesAreOpenedSelectively() throws {
    let state = try LuaState(libraries: [.base, .math])
    try state.stack.run("return type(math), type(io), type(string)", results: 3)
    #expect(state.stack.string(at: 1) == "table")
    #expect(state.stack.string(at: 2) == "nil")
    #expect(state.stack.string(at: 3) == "nil")
  }

  @Test func seededRandomIsReproducible() throws {
    func draws(seed: Int) throws -> [Int] {
      let state = try LuaState(libraries: [.base, .math])
      try state.seedRandom(seed)
      try state.stack.run(
        "return math.random(1000), math.random(1000), math.random(1000)", results: 3)
      return (1...3).compactMap { state.stack.integer(at: Int32($0)) }
    }
    #expect(try draws(seed: 42) == draws(seed: 42))
    #expect(try draws(seed: 42) != draws(seed: 43))
    let bare = try LuaState(libraries: [.base])
    #expect(throws: LuaError.self) { try bare.seedRandom(1) }
  }
}
