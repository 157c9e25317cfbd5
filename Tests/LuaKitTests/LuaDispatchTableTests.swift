import Testing

@testable import LuaKit

/// The call table prepared in C: the right handler with the right arguments, the argument
/// cache never answers for another object, errors and budgets as in any host call, and no
/// handler once the table or its state is closed.
@Suite struct LuaDispatchTableTests {
  /// A state whose `record(first, object)` keeps its arguments in `calls`, and a table with
  /// `record` in slot 1 and `first` as its first argument.
  func fixture(
    _ handler: String =
      "return function(first, object) calls[#calls + 1] = first .. ':' .. object.name; return object.answer end"
  )
    throws -> (LuaState, LuaDispatchTable)
  {
    let state = try LuaState()
    let stack = state.stack
    try stack.run("calls = {}")
    try stack.run(handler, results: 1)
    let function = stack.ref()
    stack.push("map")
    let table = LuaDispatchTable(state: state, slots: 3, firstArgument: stack.ref())
    table.setHandler(function, at: 1)
    return (state, table)
  }

  /// A table `{ name = name, answer = answer }`, referenced.
  func object(_ name: String, answer: Bool?, on state: LuaState) -> LuaRef {
    let stack = state.stack
    stack.newTable()
    stack.push(name)
    stack.rawSetField("name", ofTableAt: -2)
    if let answer {
      stack.push(answer)
      stack.rawSetField("answer", ofTableAt: -2)
    }
    return stack.ref()
  }

  func calls(_ state: LuaState) throws -> String {
    try state.stack.run("return table.concat(calls, ' ')", results: 1)
    defer { state.stack.pop() }
    return state.stack.string(at: -1) ?? ""
  }

  @Test func callsTheSlotsHandlerWithBothArgumentsAndReadsTheAnswer() throws {
    let (state, table) = try fixture()
    #expect(table.hasHandler(at: 1))
    #expect(!table.hasHandler(at: 0) && !table.hasHandler(at: 2))
    final class Object {}
    let yes = Object(), no = Object(), none = Object()
    let yesRef = object("yes", answer: true, on: state)
    #expect(try table.call(slot: 1, key: 7, identity: ObjectIdentifier(yes)) == nil)  // not cached yet
    #expect(try table.call(slot: 1, argument: yesRef, key: 7, identity: ObjectIdentifier(yes)) == .boolean(true))
    #expect(try table.call(slot: 1, key: 7, identity: ObjectIdentifier(yes)) == .boolean(true))
    let noRef = object("no", answer: false, on: state)
    #expect(try table.call(slot: 1, argument: noRef, key: 8, identity: ObjectIdentifier(no)) == .boolean(false))
    let noneRef = object("none", answer: nil, on: state)
    #expect(try table.call(slot: 1, argument: noneRef, key: 9, identity: ObjectIdentifier(none)) == .nothing)
    #expect(try table.call(slot: 1, key: 8, identity: ObjectIdentifier(no)) == .boolean(false))
    #expect(try calls(state) == "map:yes map:yes map:no map:none map:no")
    #expect(state.stack.top == 0)
  }

  @Test func theCacheNeverAnswersForAnotherObject() throws {
    let (state, table) = try fixture()
    final class Object {}
    let objects = (0..<600).map { _ in Object() }
    let refs = (0..<600).map { object("o\($0)", answer: true, on: state) }
    var expected: [String] = []
    // Keys that share cache entries (256 apart) and one key for two objects: each call
    // reaches its own object, or misses.
    for round in 0..<3 {
      for i in stride(from: round, to: 600, by: 7) {
        let key = i % 300
        if try table.call(slot: 1, key: key, identity: ObjectIdentifier(objects[i])) == nil {
          _ = try table.call(slot: 1, argument: refs[i], key: key, identity: ObjectIdentifier(objects[i]))
        }
        expected.append("map:o\(i)")
      }
    }
    #expect(try calls(state) == expected.joined(separator: " "))
  }

  @Test func otherAnswersAndErrorsAreReportedAndTheStackIsLeftAsFound() throws {
    let (state, table) = try fixture(
      "return function(first, object) if object.name == 'bad' then error('no such thing') end return object.name end")
    final class Object {}
    let a = Object(), b = Object()
    #expect(
      try table.call(slot: 1, argument: object("x", answer: nil, on: state), key: 1, identity: ObjectIdentifier(a))
        == .other(.string))
    let bad = object("bad", answer: nil, on: state)
    let error = try #require(throws: LuaError.self) {
      try table.call(slot: 1, argument: bad, key: 2, identity: ObjectIdentifier(b))
    }
    #expect(error.kind == .runtime)
    #expect(error.message.hasSuffix("no such thing"))
    #expect(error.traceback?.hasPrefix("stack traceback:") == true)
    #expect(state.stack.top == 0)
    #expect(throws: LuaError.self) { try table.call(slot: 1, key: 2, identity: ObjectIdentifier(b)) }
    #expect(state.stack.top == 0)
  }

  @Test func theInstructionBudgetAndTheMemoryCapHoldAsInAnyHostCall() throws {
    let (state, table) = try fixture(
      "return function(first, object) if object.name == 'loop' then while true do end end return string.rep('x', 1 << 24) end"
    )
    state.instructionBudget = (100_000, .exact)
    state.memoryLimit = 4 << 20
    final class Object {}
    let a = Object(), b = Object()
    let loop = try #require(throws: LuaError.self) {
      try table.call(slot: 1, argument: object("loop", answer: nil, on: state), key: 1, identity: ObjectIdentifier(a))
    }
    #expect(loop.kind == .timeout)
    #expect(!state.isHookArmed)
    let big = try #require(throws: LuaError.self) {
      try table.call(slot: 1, argument: object("big", answer: nil, on: state), key: 2, identity: ObjectIdentifier(b))
    }
    #expect(big.kind == .memory)
    #expect(state.stack.top == 0)
  }

  @Test func aHandlerRunsOnTheMainThreadAndItsCoroutinesWork() throws {
    let (state, table) = try fixture(
      """
      return function(first, object)
        local running, ismain = coroutine.running()
        local co = coroutine.create(function(a) local b = coroutine.yield(a + 1); return b * 2 end)
        local _, one = coroutine.resume(co, 1)
        local _, two = coroutine.resume(co, 10)
        local wrapped = coroutine.wrap(function() coroutine.yield('w') end)
        seen = tostring(ismain) .. ' ' .. coroutine.status(running) .. ' ' .. one .. ' ' .. two .. ' '
          .. coroutine.status(co) .. ' ' .. wrapped() .. ' ' .. tostring(coroutine.isyieldable())
        return ismain
      end
      """)
    final class Object {}
    let a = Object()
    let ref = object("a", answer: nil, on: state)
    // The first call caches the argument; the second goes through the cache: both on the
    // main thread, as every Lua host calls its callbacks.
    for call in 0..<2 {
      let answer =
        call == 0
        ? try table.call(slot: 1, argument: ref, key: 1, identity: ObjectIdentifier(a))
        : try table.call(slot: 1, key: 1, identity: ObjectIdentifier(a))
      #expect(answer == .boolean(true))
      try state.stack.run("return seen", results: 1)
      #expect(state.stack.string(at: -1) == "true running 2 20 dead w false")
      state.stack.pop()
    }
    #expect(state.stack.top == 0)
  }

  @Test func aNestedCallOfTheSameTableAndChangesMadeDuringACallAreSeen() throws {
    let (state, table) = try fixture(
      """
      return function(first, object)
        calls[#calls + 1] = first .. ':' .. object.name
        if object.name == 'outer' then nest() end
        return object.answer
      end
      """)
    final class Object {}
    let outer = Object(), inner = Object(), later = Object()
    let stack = state.stack
    try stack.run(
      "return function(first, object) calls[#calls + 1] = 'second:' .. object.name; return true end", results: 1)
    let second = stack.ref()
    let innerRef = object("inner", answer: false, on: state), laterRef = object("later", answer: true, on: state)
    var nested: [LuaBooleanResult?] = []
    stack.pushGlobals()
    var balanced: [Bool] = []
    stack.register("nest", inTableAt: -1) { _ in
      // While the outer call runs: a nested call, a new handler and a new argument, all of
      // which later calls must see; the nested calls leave the outer call's stack as it was.
      stack.push("below")
      let top = stack.top
      nested.append(try? table.call(slot: 1, argument: innerRef, key: 2, identity: ObjectIdentifier(inner)))
      nested.append(try? table.call(slot: 1, key: 2, identity: ObjectIdentifier(inner)))
      table.setHandler(second, at: 2)
      _ = try? table.call(slot: 2, argument: laterRef, key: 3, identity: ObjectIdentifier(later))
      balanced.append(stack.top == top && stack.string(at: -1) == "below")
      stack.pop()
      return 0
    }
    stack.pop()
    let outerRef = object("outer", answer: true, on: state)
    _ = try table.call(slot: 1, argument: outerRef, key: 1, identity: ObjectIdentifier(outer))
    #expect(try table.call(slot: 1, key: 1, identity: ObjectIdentifier(outer)) == .boolean(true))
    #expect(nested == [.boolean(false), .boolean(false), .boolean(false), .boolean(false)])
    #expect(balanced == [true, true])  // the outer handler nests on both of its calls
    #expect(try table.call(slot: 2, key: 3, identity: ObjectIdentifier(later)) == .boolean(true))
    #expect(try table.call(slot: 1, key: 2, identity: ObjectIdentifier(inner)) == .boolean(false))
    #expect(
      try calls(state)
        == "map:outer map:inner map:inner second:later map:outer map:inner map:inner second:later second:later map:inner"
    )
    #expect(state.stack.top == 0)
  }

  @Test func aCallNestedInAScriptIsCountedAndLeavesNoHook() throws {
    let (state, table) = try fixture(
      "return function(first, object) if object.name == 'loop' and armed then while true do end end return true end")
    state.instructionBudget = (100_000, .exact)
    final class Object {}
    let a = Object(), b = Object()
    let fine = object("fine", answer: nil, on: state), loop = object("loop", answer: nil, on: state)
    _ = try table.call(slot: 1, argument: fine, key: 1, identity: ObjectIdentifier(a))
    _ = try table.call(slot: 1, argument: loop, key: 2, identity: ObjectIdentifier(b))
    var nested: [LuaError.Kind?] = []
    state.stack.pushGlobals()
    state.stack.register("nest", inTableAt: -1) { _ in
      // Called from a script: the table's calls nest in its call.
      for key in [1, 2] {
        do {
          _ = try table.call(slot: 1, key: key, identity: ObjectIdentifier(key == 1 ? a : b))
          nested.append(nil)
        } catch { nested.append((error as? LuaError)?.kind) }
      }
      return 0
    }
    state.stack.pop()
    let outer = try #require(throws: LuaError.self) { try state.stack.run("armed = true; nest(); while true do end") }
    #expect(nested == [nil, .timeout])  // the nested loop is stopped by the count...
    #expect(outer.kind == .timeout)  // ...and so is the script that called it
    #expect(!state.isHookArmed)
    #expect(try table.call(slot: 1, key: 1, identity: ObjectIdentifier(a)) == .boolean(true))
  }

  @Test func aTableClosedByItsOwnHandlerStillReportsThatCallsError() throws {
    let (state, table) = try fixture("return function(first, object) close_me(); error('after closing') end")
    state.stack.pushGlobals()
    state.stack.register("close_me", inTableAt: -1) { _ in
      table.close()  // a plugin disabled from inside its own call
      return 0
    }
    state.stack.pop()
    final class Object {}
    let a = Object()
    let ref = object("a", answer: nil, on: state)
    let error = try #require(throws: LuaError.self) {
      try table.call(slot: 1, argument: ref, key: 1, identity: ObjectIdentifier(a))
    }
    #expect(error.message.hasSuffix("after closing"))
    #expect(!table.hasHandler(at: 1))
    #expect(state.stack.top == 0)
  }

  @Test func noSlotHasAHandlerOnceTheTableOrItsStateIsClosed() throws {
    let (state, table) = try fixture()
    table.close()
    #expect(!table.hasHandler(at: 1))
    let (other, otherTable) = try fixture()
    other.close()
    #expect(!otherTable.hasHandler(at: 1))
    _ = state
  }
}
