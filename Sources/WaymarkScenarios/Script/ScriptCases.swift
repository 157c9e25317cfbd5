import LuaKit
import WaymarkCore
import WaymarkScripting

/// One case of a test file (an `it` or a `pending`), as the run found it and ran it; or an
/// error outside any case (a describe's body, a setup or a teardown that raised or whose
/// expectation failed), named by its block's full name and the hook.
public struct ScriptCase: Sendable, Hashable {
  /// The names of its `describe`s and its own, joined by spaces.
  public var name: String
  /// The line of the script where it was declared.
  public var line: Int
  /// Whether it is `pending` (declared so and never run, or it called `pending()`).
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

/// The cases inside a test file, in busted 2's language (docs/testing.md, "Cases inside a
/// file"): `describe` (and `context`, `insulate`, `expose`), `it` (`spec`, `test`),
/// `pending`, `before_each`, `after_each`, `setup`/`teardown` (busted's strict ones),
/// `lazy_setup`/`lazy_teardown`, `strict_setup`/`strict_teardown` and `finally`, with
/// busted's meaning and order (`blocksPrelude`). The script's chunk runs first and declares
/// the top-level blocks and cases; then the session walks them, a describe's body running
/// when the walk reaches it.
///
/// What the cases of a file share is the script's Lua state: its globals (an `insulate`
/// block puts them back as they were when it ends), the upvalues of the chunk and the
/// modules it requires, as busted's do. What each has of its own: the map (one made
/// outside a case is retired before the case runs, and each case's map is retired after
/// it, its plugins' `teardown` running), so plugins load fresh for each case; its trace
/// records, `expect_plugin_error` declarations and plugin errors; and `math.random`, seeded
/// again as at the start of the script.
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

  /// Installs busted's test globals into the environment table at `environment`
  /// (``blocksPrelude``). Returns the table the session drives the run with.
  static func install(into environment: Int32, on stack: LuaStack, seed: Int, options: ScriptOptions) throws(LuaError)
    -> LuaRef
  {
    let environment = stack.absoluteIndex(environment)
    try stack.load(blocksPrelude, chunkName: "=(test cases)")
    stack.pushValue(at: environment)
    stack.push(seed)
    stack.newTable()
    for (key, list) in [
      ("filters", options.caseFilters), ("tags", options.caseTags), ("exclude", options.excludedCaseTags),
    ] {
      stack.newTable()
      for (index, text) in list.enumerated() {
        stack.push(text)
        stack.rawSetIndex(index + 1, ofTableAt: -2)
      }
      stack.rawSetField(key, ofTableAt: -2)
    }
    stack.push(options.listsCases)
    stack.rawSetField("listing", ofTableAt: -2)
    stack.push(options.shufflesCases)
    stack.rawSetField("shuffle", ofTableAt: -2)
    if let seed = options.shuffleSeed {
      stack.push(seed)
      stack.rawSetField("seed", ofTableAt: -2)
    }
    try stack.call(arguments: 3, results: 1)
    return stack.ref()
  }
}
