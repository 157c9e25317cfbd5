import LuaKit
import WaymarkCore
import WaymarkScripting

extension ScriptSession {
  /// Runs the blocks and cases the chunk declared (none: nothing to do), each case on a
  /// fresh map, following the walk of ``ScriptCases/blocksPrelude``, and records each case in
  /// ``ScriptOutcome/cases``; an error outside a case (a describe's body, a setup or a
  /// teardown) is recorded there too, as a failed entry named by its block and hook. A
  /// timeout or an out-of-memory stop ends the whole run (it is rethrown: the file's error).
  func runCases(on stack: LuaStack) throws(LuaError) {
    guard let control = caseControl else { return }
    let base = stack.top
    defer { stack.setTop(base) }
    stack.push(control)
    let table = stack.top
    guard try call("declares", of: table, on: stack, results: 1) == .boolean, stack.boolean(at: -1) else { return }
    stack.setTop(table)
    outcome.declaresCases = true
    bridge?.staleMapMessage =
      "this map is no longer current: each case of a test file starts with no map and makes its own (in before_each or its it), and a later waymark.map{} replaces the one before"
    retire()
    classifyPluginErrors(endingAt: now)
    _ = try call("start", of: table, on: stack, results: 0)
    var succeeded = true
    var running: (found: ScriptCase, started: ContinuousClock.Instant)?
    while true {
      _ = try stack.getField("next", ofTableAt: table)
      stack.push(succeeded)
      try stack.call(arguments: 1, results: 4)
      let step = stack.string(at: -4)
      let name = stack.string(at: -3) ?? ""
      let line = stack.integer(at: -2) ?? 0
      switch step {
      case "call":
        let label = stack.type(at: -2) == .string ? stack.string(at: -2) : nil
        let hookLine = stack.integer(at: -1) ?? 0
        stack.pushValue(at: -3)
        succeeded = try callStep(on: stack, control: table, label: label, line: hookLine)
      case "begin":
        retire()
        classifyPluginErrors(endingAt: now)
        caseErrors = []
        let first = trace.records.count
        bridge?.traceStart = first
        running = (ScriptCase(name: name, line: line, isPending: false, records: first..<first), .now)
      case "end":
        guard let (begun, started) = running else { break }
        var found = begun
        let isPending = stack.boolean(at: -3)
        retire()
        classifyPluginErrors(endingAt: now)
        found.errors = caseErrors ?? []
        found.isPending = isPending && found.errors.isEmpty
        caseErrors = nil
        found.records = found.records.lowerBound..<trace.records.count
        found.seconds = (ContinuousClock.now - started).seconds
        running = nil
        outcome.cases.append(found)
        if options.stopsAtFirstFailedCase, hasFailed(found) { return }
      case "pending", "list":
        let at = trace.records.count
        outcome.cases.append(ScriptCase(name: name, line: line, isPending: step == "pending", records: at..<at))
      default: return
      }
      stack.setTop(table)
    }
  }

  /// Calls the function on top of the stack, one step of the walk: inside a case its error
  /// is the case's (but `pending()`'s, which makes it pending); outside, an error, or an
  /// expectation that failed, is an entry of its own named `label`. Whether it succeeded.
  private func callStep(on stack: LuaStack, control table: Int32, label: String?, line: Int) throws(LuaError) -> Bool {
    let first = trace.records.count
    var failure: String?
    var assertionFailed = false
    do {
      try stack.call(arguments: 0, results: 0)
    } catch {
      if error.kind == .timeout || error.kind == .memory { throw error }
      failure = describe(error)
      assertionFailed = try takeFailure(on: stack) == error.message
    }
    guard let label else {
      guard let failure else { return true }
      if try call("is_pending", of: table, on: stack, results: 1) == .boolean, stack.boolean(at: -1) { return false }
      // busted: a failed assertion in the case is a failure; anything else raised, an error.
      if assertionFailed { fail(failure) } else { caseFailed(failure) }
      return false
    }
    caseErrors = []
    if let failure { caseFailed(failure) }
    classifyPluginErrors(endingAt: now)
    var entry = ScriptCase(name: label, line: line, isPending: false, records: first..<trace.records.count)
    entry.errors = caseErrors ?? []
    caseErrors = nil
    guard failure != nil || hasFailed(entry) else { return true }
    outcome.cases.append(entry)
    return failure == nil
  }

  /// The message of the luassert failure raised since the last call, if any
  /// (``ScriptAssertions``).
  private func takeFailure(on stack: LuaStack) throws(LuaError) -> String? {
    guard let control = assertionControl else { return nil }
    stack.push(control)
    defer { stack.pop() }
    guard try call("take_failure", of: stack.top, on: stack, results: 1) == .string else { return nil }
    defer { stack.pop() }
    return stack.string(at: -1)
  }

  /// Records an error of the running case: a `script_error` record, and a failure of the run.
  func caseFailed(_ message: String) {
    caseErrors?.append(message)
    outcome.failures.append(message)
    var record = TraceRecord(time: now, event: .scriptError)
    record.message = message
    trace.append(record)
  }

  /// Whether a case that ran failed: an error, a failed expectation, or a plugin error it did
  /// not expect.
  private func hasFailed(_ found: ScriptCase) -> Bool {
    !found.errors.isEmpty || trace.records[found.records].contains { $0.event == .expectFailed }
      || outcome.pluginProblems.contains { found.records.contains($0.index) && !$0.isExpected && !$0.isWarning }
  }

  private func call(_ name: String, of table: Int32, on stack: LuaStack, results: Int32) throws(LuaError) -> LuaType {
    _ = try stack.getField(name, ofTableAt: table)
    try stack.call(arguments: 0, results: results)
    return results > 0 ? stack.type(at: -1) : .nil
  }
}

extension Duration {
  /// The duration in seconds.
  fileprivate var seconds: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }
}
