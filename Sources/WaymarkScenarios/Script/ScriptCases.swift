import LuaKit
import WaymarkCore
import WaymarkScripting

/// One case of a test file (an `it` or a `pending`), as the run found it and ran it.
public struct ScriptCase: Sendable, Hashable {
  /// The names of its `describe`s and its own, joined by spaces.
  public var name: String
  /// The line of the script where it was declared.
  public var line: Int
  /// Whether it is `pending` (declared, never run).
  public var isPending: Bool
  /// Its records: positions in ``ScriptOutcome/records`` (empty when it did not run).
  public var records: Range<Int>
  /// Every error that stopped one of its functions (a `before_each`, the `it`, an
  /// `after_each`), "file:line: message", in order.
  public var errors: [String] = []
  /// Wall-clock seconds it took, its `before_each` and `after_each` included.
  public var seconds = 0.0

  /// Creates a case.
  public init(name: String, line: Int, isPending: Bool, records: Range<Int>) {
    self.name = name
    self.line = line
    self.isPending = isPending
    self.records = records
  }
}

/// The cases inside a test file: `describe`, `it`, `before_each`, `after_each` and `pending`,
/// with busted's meaning (docs/testing.md, "Cases inside a file"). The script's chunk runs
/// first and only declares them (a `describe` runs its function at once, an `it` keeps its
/// own); then each case runs in order, its `before_each` functions from the outermost
/// `describe` in, the `it`, its `after_each` functions from the innermost out.
///
/// What the cases of a file share is the script's Lua state: its globals, the upvalues of
/// the chunk and the modules it requires, as busted's do. What each has of its own: the map
/// (one made before the cases is retired before the first runs, and each case's map is
/// retired after it, its plugins' `teardown` running), so plugins load fresh for each case;
/// its trace records, `expect_plugin_error` declarations and plugin errors; and
/// `math.random`, seeded again as at the start of the script.
public enum ScriptCases {
  /// Why `pattern` is not a Lua pattern, in Lua's words ("malformed pattern (ends with
  /// '%')"), nil when it is one: checked before any file runs (`--filter`). Lua itself only
  /// notices a malformed pattern when a match reaches the bad part, so it is read here the
  /// way Lua's matcher reads it, and so are the two limits it meets only while matching: 32
  /// captures, and 200 choice points (captures, repetitions, optional items) nested in one
  /// attempt, which only a pattern with that many can reach.
  public static func patternProblem(_ pattern: String) -> String? {
    let bytes = Array(pattern.utf8)
    var open: [Int] = [], closed = Set<Int>(), captures = 0, choices = 0
    /// Moves past a quantifier after the single item that ends before `index`, counting it.
    func quantifier(_ index: inout Int) {
      guard index < bytes.count, "*+-?".utf8.contains(bytes[index]) else { return }
      choices += 1
      index += 1
    }
    var index = bytes.first == UInt8(ascii: "^") ? 1 : 0
    /// The end of the set that starts at `start` (its `[`), nil when it has no `]`.
    func setEnd(_ start: Int) -> Int? {
      var at = start + 1
      if at < bytes.count, bytes[at] == UInt8(ascii: "^") { at += 1 }
      repeat {
        guard at < bytes.count else { return nil }
        at += bytes[at] == UInt8(ascii: "%") ? 2 : 1
      } while at < bytes.count && bytes[at] != UInt8(ascii: "]")
      return at < bytes.count ? at + 1 : nil
    }
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "("):
        guard captures < maxCaptures else { return "too many captures" }
        captures += 1
        choices += 1
        open.append(captures)
        index += 1
      case UInt8(ascii: ")"):
        guard let last = open.popLast() else { return "invalid pattern capture" }
        closed.insert(last)
        choices += 1
        index += 1
      case UInt8(ascii: "["):
        guard let end = setEnd(index) else { return "malformed pattern (missing ']')" }
        index = end
        quantifier(&index)
      case UInt8(ascii: "%"):
        guard index + 1 < bytes.count else { return "malformed pattern (ends with '%')" }
        let next = bytes[index + 1]
        switch next {
        case UInt8(ascii: "b"):
          guard index + 3 < bytes.count else { return "missing arguments to '%b'" }
          index += 4
        case UInt8(ascii: "f"):
          guard index + 2 < bytes.count, bytes[index + 2] == UInt8(ascii: "[") else {
            return "missing '[' after '%f' in pattern"
          }
          guard let end = setEnd(index + 2) else { return "malformed pattern (missing ']')" }
          index = end
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
          let number = Int(next - UInt8(ascii: "0"))
          guard closed.contains(number) else { return "invalid capture index %\(number)" }
          index += 2
        default:
          index += 2
          quantifier(&index)
        }
      default:
        index += 1
        quantifier(&index)
      }
    }
    guard open.isEmpty else { return "unfinished capture" }
    return choices < maxNesting
      ? nil
      : "pattern too complex (\(choices) captures, repetitions and optional items; Lua's matcher nests \(maxNesting))"
  }

  /// The most captures a pattern opens (Lua's `LUA_MAXCAPTURES`).
  static let maxCaptures = 32
  /// The choice points one match may hold open (Lua's `MAXCCALLS`).
  static let maxNesting = 200

  /// Whether `text` contains a match of one of the Lua `patterns` (a malformed one matches
  /// nothing): a file that declares no case is matched by its path.
  public static func anyMatches(_ patterns: [String], in text: String) -> Bool {
    patterns.contains { find($0, in: text).found }
  }

  private static func find(_ pattern: String, in text: String) -> (found: Bool, problem: String?) {
    if let problem = patternProblem(pattern) { return (false, problem) }
    do {
      let state = try LuaState(memoryLimit: 16 << 20, libraries: [.base, .string])
      defer { state.close() }
      let stack = state.stack
      try stack.load("local text, pattern = ...; return string.find(text, pattern) ~= nil", chunkName: "=--filter")
      stack.push(text)
      stack.push(pattern)
      try stack.call(arguments: 2, results: 1)
      return (stack.boolean(at: -1), nil)
    } catch {
      return (
        false,
        error.message.replacingOccurrences(of: "--filter:1: ", with: "").replacingOccurrences(
          of: "bad argument #2 to 'find' ", with: "")
      )
    }
  }

  /// Installs the functions into the environment table at `environment`. Returns the table
  /// the session drives the cases with (`count`, `info`, `steps`, `start`).
  static func install(into environment: Int32, on stack: LuaStack, seed: Int) throws(LuaError) -> LuaRef {
    let environment = stack.absoluteIndex(environment)
    try stack.load(prelude, chunkName: "=(test cases)")
    stack.pushValue(at: environment)
    stack.push(seed)
    try stack.call(arguments: 2, results: 1)
    return stack.ref()
  }

  /// Trusted Lua, run with the real globals.
  static let prelude = #"""
    local env, seed = ...
    local getinfo, type, error, concat, randomseed = debug.getinfo, type, error, table.concat, math.randomseed
    local root = { befores = {}, afters = {} }
    local frames = { root }
    local cases = {}
    local declaring = true

    local function check(what, name, body, optional)
      if not declaring then
        error(what .. ": cases are declared at the top of a test file or inside describe, not while one runs", 3)
      end
      if type(name) ~= "string" then
        error("bad argument #1 to '" .. what .. "' (string expected, got " .. type(name) .. ")", 3)
      end
      if not (type(body) == "function" or (optional and body == nil)) then
        error("bad argument #2 to '" .. what .. "' (function expected, got " .. type(body) .. ")", 3)
      end
    end

    local function declare(name, body, pending)
      local parts, chain = {}, {}
      for i = 1, #frames do
        chain[i] = frames[i]
        if i > 1 then parts[#parts + 1] = frames[i].name end
      end
      parts[#parts + 1] = name
      local info = getinfo(3, "l")
      cases[#cases + 1] = { name = concat(parts, " "), line = info and info.currentline or 0, body = body,
        pending = pending, chain = chain }
    end

    env.describe = function(name, body)
      check("describe", name, body)
      frames[#frames + 1] = { name = name, befores = {}, afters = {} }
      body()
      frames[#frames] = nil
    end
    env.it = function(name, body)
      check("it", name, body, true)
      declare(name, body, body == nil)
    end
    env.pending = function(name, body)
      check("pending", name, body, true)
      declare(name, nil, true)
    end
    local function hook(what, key)
      return function(body)
        if not declaring then error(what .. ": declared inside a case; declare it inside describe", 2) end
        if type(body) ~= "function" then
          error("bad argument #1 to '" .. what .. "' (function expected, got " .. type(body) .. ")", 2)
        end
        local list = frames[#frames][key]
        list[#list + 1] = body
      end
    end
    env.before_each = hook("before_each", "befores")
    env.after_each = hook("after_each", "afters")

    return {
      count = function() return #cases end,
      info = function(i) local c = cases[i]; return c.name, c.line, c.pending end,
      -- The case's functions in the order they run, the position of the `it` among them and
      -- how many there are.
      steps = function(i)
        local c, list = cases[i], {}
        for _, frame in ipairs(c.chain) do
          for _, body in ipairs(frame.befores) do list[#list + 1] = body end
        end
        list[#list + 1] = c.body
        local at = #list
        for f = #c.chain, 1, -1 do
          for _, body in ipairs(c.chain[f].afters) do list[#list + 1] = body end
        end
        return list, at, #list
      end,
      -- The declarations are over; each case starts with `math.random` as the script did.
      start = function() declaring = false; randomseed(seed) end,
    }
    """#
}

extension ScriptSession {
  /// Runs the cases the chunk declared (none: nothing to do), each on a fresh map, keeping
  /// those the filters match, and records each in ``ScriptOutcome/cases``. A timeout or an
  /// out-of-memory stop ends the whole run (it is rethrown: the file's error).
  func runCases(on stack: LuaStack) throws(LuaError) {
    guard let control = caseControl else { return }
    let base = stack.top
    defer { stack.setTop(base) }
    stack.push(control)
    let table = stack.top
    guard try call("count", of: table, on: stack, results: 1) == .number, let count = stack.integer(at: -1), count > 0
    else { return }
    stack.setTop(table)
    outcome.declaresCases = true
    bridge?.staleMapMessage =
      "this map is no longer current: each case of a test file starts with no map and makes its own (in before_each or its it), and a later waymark.map{} replaces the one before"
    retire()
    classifyPluginErrors(endingAt: now)
    for index in 1...count {
      _ = try stack.getField("info", ofTableAt: table)
      stack.push(index)
      try stack.call(arguments: 1, results: 3)
      var found = ScriptCase(
        name: stack.string(at: -3) ?? "", line: stack.integer(at: -2) ?? 0, isPending: stack.boolean(at: -1),
        records: trace.records.count..<trace.records.count)
      stack.setTop(table)
      guard options.caseFilters.isEmpty || options.caseFilters.contains(where: { matches($0, found.name) }) else {
        continue
      }
      if options.listsCases || found.isPending {
        outcome.cases.append(found)
        continue
      }
      try run(&found, index: index, control: table, on: stack)
      outcome.cases.append(found)
      if options.stopsAtFirstFailedCase, hasFailed(found) { break }
    }
  }

  /// Runs case `index` from the control table at `table`: its `before_each` functions until
  /// one raises (the `it` is then skipped), the `it`, and every `after_each`.
  private func run(_ found: inout ScriptCase, index: Int, control table: Int32, on stack: LuaStack) throws(LuaError) {
    _ = try call("start", of: table, on: stack, results: 0)
    let started = ContinuousClock.now
    let first = trace.records.count
    bridge?.traceStart = first
    caseErrors = []
    _ = try stack.getField("steps", ofTableAt: table)
    stack.push(index)
    try stack.call(arguments: 1, results: 3)
    let list = stack.absoluteIndex(-3)
    let body = stack.integer(at: -2) ?? 0
    let total = stack.integer(at: -1) ?? 0
    for position in 1...max(1, total) where position > body || caseErrors?.isEmpty != false {
      stack.rawGetIndex(position, ofTableAt: list)
      do {
        try stack.call(arguments: 0, results: 0)
      } catch {
        if error.kind == .timeout || error.kind == .memory { throw error }
        caseFailed(describe(error))
      }
    }
    stack.setTop(table)
    retire()
    classifyPluginErrors(endingAt: now)
    found.errors = caseErrors ?? []
    caseErrors = nil
    found.records = first..<trace.records.count
    found.seconds = (ContinuousClock.now - started).seconds
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
