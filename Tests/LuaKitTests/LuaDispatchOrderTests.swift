import Testing

@testable import LuaKit

/// The veto loop in C over several prepared tables: asked in order, stopped at the first
/// `true`, and back in Swift exactly where the owner has work (an error, another answer, an
/// argument not cached, a call nested too deep), with the failure counters and the depth
/// kept as the owner's rules need them (docs/plugins.md: a veto stops at the first `true`;
/// consecutive failures reset by a success only; calls nest at most 16 deep).
@Suite struct LuaDispatchOrderTests {
  final class Owner {
    let name: String
    init(_ name: String) { self.name = name }
  }

  /// One state with a global `calls`, and one table per handler source in `handlers`
  /// (slot 0; nil: no handler), each with the owner named by its index, in one order.
  struct Fixture {
    let state: LuaState
    let tables: [LuaDispatchTable]
    let owners: [Owner]
    let order: LuaDispatchOrder
    let object: LuaRef
    let identity: ObjectIdentifier

    func calls() throws -> String {
      try state.stack.run("return table.concat(calls, ' ')", results: 1)
      defer { state.stack.pop() }
      return state.stack.string(at: -1) ?? ""
    }

    /// Teaches every table the object (key 5), with one call each, then clears `calls`.
    func learn(skipping skipped: Set<Int> = []) throws {
      for (index, table) in tables.enumerated() where table.hasHandler(at: 0) && !skipped.contains(index) {
        _ = try? table.call(slot: 0, argument: object, key: 5, identity: identity)
      }
      try state.stack.run("calls = {}")
    }

    func takeError(_ index: Int) -> LuaError {
      let walk = order.enter()
      defer { order.leave(walk) }
      return order.takeError(of: walk, at: index)
    }

    func ask(from start: Int = 0) -> LuaDispatchOrder.Stop {
      let walk = order.enter()
      defer { order.leave(walk) }
      return order.firstTrue(in: walk, from: start, slot: 0, key: 5, identity: identity)
    }
  }

  final class Object {}

  func fixture(_ handlers: [String?], maxDepth: Int = 16, prelude: (LuaState) -> Void = { _ in }) throws -> Fixture {
    let state = try LuaState()
    prelude(state)
    let stack = state.stack
    try stack.run("calls = {}")
    stack.push("map")
    let first = stack.ref()
    var tables: [LuaDispatchTable] = []
    for source in handlers {
      let table = LuaDispatchTable(state: state, slots: 1, firstArgument: first)
      if let source {
        try stack.run(source, results: 1)
        table.setHandler(stack.ref(), at: 0)
      }
      tables.append(table)
    }
    let owners = handlers.indices.map { Owner("p\($0)") }
    let order = LuaDispatchOrder(maxDepth: maxDepth)
    order.set(zip(tables, owners).map { ($0, $1) })
    stack.newTable()
    let object = stack.ref()
    return Fixture(
      state: state, tables: tables, owners: owners, order: order, object: object,
      identity: ObjectIdentifier(Object.self))
  }

  /// A handler that records `name` and returns `answer` (Lua source).
  func handler(_ name: String, _ answer: String) -> String {
    "return function(map, object) calls[#calls + 1] = map .. ':' .. '\(name)'; return \(answer) end"
  }

  func name(_ walk: LuaDispatchOrder.Walk, _ index: Int) -> String {
    walk.owner(at: index, as: Owner.self).takeUnretainedValue().name
  }

  @Test func asksInOrderSkipsTablesWithoutHandlersAndStopsAtTheFirstTrue() throws {
    let f = try fixture([handler("a", "false"), nil, handler("c", "nil"), handler("d", "true"), handler("e", "true")])
    try f.learn()
    guard case .decided(3) = f.ask() else { Issue.record("expected the fourth table to decide"); return }
    #expect(try f.calls() == "map:a map:c map:d")
    let walk = f.order.enter()
    #expect(name(walk, 3) == "p3")
    f.order.leave(walk)
    guard case .decided(4) = f.ask(from: 4) else { Issue.record("expected the fifth"); return }
    #expect(f.state.stack.top == 0)
  }

  @Test func noTableAnswersTrue() throws {
    let f = try fixture([handler("a", "false"), handler("b", "nil")])
    try f.learn()
    guard case .none = f.ask() else { Issue.record("expected none"); return }
    #expect(try f.calls() == "map:a map:b")
  }

  @Test func aClosedTableOrStateIsSkipped() throws {
    let f = try fixture([handler("a", "true"), handler("b", "true")])
    try f.learn()
    f.tables[0].close()
    guard case .decided(1) = f.ask() else { Issue.record("expected the second"); return }
    #expect(try f.calls() == "map:b")
    f.state.close()
    guard case .none = f.ask() else { Issue.record("a closed state has no handler"); return }
  }

  @Test func anArgumentNotCachedStopsBeforeTheCall() throws {
    let f = try fixture([handler("a", "false"), handler("b", "true")])
    try f.learn(skipping: [1])
    guard case .miss(1) = f.ask() else { Issue.record("expected a miss at the second"); return }
    #expect(try f.calls() == "map:a")
  }

  @Test func errorsAndOtherAnswersStopAtTheirTableAndTheLoopGoesOnAfterIt() throws {
    let f = try fixture([
      "return function(map, object) calls[#calls + 1] = 'a'; error('no such thing') end",
      "return function(map, object) calls[#calls + 1] = 'b'; return 42 end",
      handler("c", "true"),
    ])
    try f.learn()
    f.tables[0].consecutiveFailures = 3
    f.tables[1].consecutiveFailures = 3
    guard case .failed(0) = f.ask() else { Issue.record("expected an error"); return }
    let error = f.takeError(0)
    #expect(error.kind == .runtime)
    #expect(error.message.contains(":1: no such thing"))
    #expect(error.traceback?.hasPrefix("stack traceback:") == true)
    #expect(f.state.stack.top == 0)
    guard case .other(1, .number) = f.ask(from: 1) else { Issue.record("expected a number"); return }
    guard case .decided(2) = f.ask(from: 2) else { Issue.record("expected the third"); return }
    #expect(try f.calls() == "a b map:c")
    // Neither a failure nor another answer is a success: only the owner resets its count.
    #expect(f.tables[0].consecutiveFailures == 3 && f.tables[1].consecutiveFailures == 3)
  }

  @Test func aSuccessResetsConsecutiveFailuresUnlessAFailureHappenedInside() throws {
    var tables: [LuaDispatchTable] = []
    let f = try fixture([handler("a", "false"), "return function(map, object) fail_inside(); return false end"]) {
      state in
      let stack = state.stack
      stack.pushGlobals()
      stack.register("fail_inside", inTableAt: -1) { _ in
        tables[1].failures += 1
        tables[1].consecutiveFailures += 1
        return 0
      }
      stack.pop()
    }
    tables = f.tables
    try f.learn()
    f.tables[0].consecutiveFailures = 2
    f.tables[1].consecutiveFailures = 2
    let failures = f.tables[1].failures
    guard case .none = f.ask() else { Issue.record("expected none"); return }
    #expect(f.tables[0].consecutiveFailures == 0)
    #expect(f.tables[1].failures == failures + 1)
    #expect(f.tables[1].consecutiveFailures == 3)
  }

  @Test func callsCountInTheDepthAndNoneIsMadeAtTheLimit() throws {
    var depths: [Int] = []
    var order: LuaDispatchOrder?
    let f = try fixture(
      [handler("a", "false"), "return function(map, object) record_depth(); return false end"], maxDepth: 4
    ) { state in
      let stack = state.stack
      stack.pushGlobals()
      stack.register("record_depth", inTableAt: -1) { _ in
        depths.append(order?.depth ?? -1)
        return 0
      }
      stack.pop()
    }
    order = f.order
    try f.learn()
    depths = []
    f.order.depth = 2
    guard case .none = f.ask() else { Issue.record("expected none"); return }
    #expect(depths == [3])
    #expect(f.order.depth == 2)
    f.order.depth = 4
    guard case .nested(0) = f.ask() else { Issue.record("expected a refusal at the first"); return }
    #expect(try f.calls() == "map:a")
  }

  @Test func theBudgetStopsACallInTheLoopAndTheNextTableIsStillAsked() throws {
    let f = try fixture([
      "return function(map, object) while true do end end", handler("b", "true"),
    ])
    try f.state.stack.run("calls = {}")
    f.state.instructionBudget = (100_000, .exact)
    // Learning calls the looping handler once: stopped by the budget too.
    try f.learn()
    guard case .failed(0) = f.ask() else { Issue.record("expected the budget's stop"); return }
    let error = f.takeError(0)
    #expect(error.kind == .timeout)
    #expect(!f.state.isHookArmed)
    guard case .decided(1) = f.ask(from: 1) else { Issue.record("expected the second"); return }
  }

  @Test func aWalkKeepsItsListWhenTheOrderChangesDuringIt() throws {
    let f = try fixture([handler("a", "false"), handler("b", "true")])
    try f.learn()
    let walk = f.order.enter()
    f.order.set([(f.tables[1], f.owners[1])])
    guard case .decided(1) = f.order.firstTrue(in: walk, from: 0, slot: 0, key: 5, identity: f.identity) else {
      Issue.record("the walk lost its list")
      return
    }
    #expect(name(walk, 0) == "p0")
    f.order.leave(walk)
    guard case .decided(0) = f.ask() else { Issue.record("the next walk sees the new list"); return }
    #expect(try f.calls() == "map:a map:b map:b")
  }
}
