import LuaKit
import WaymarkScripting

extension LiveSession {
  /// The completions of the name a REPL line ends with, each the whole name to put in its
  /// place (`map.cam` → `map.camera`), sorted, each once.
  ///
  /// A bare name completes among what a line can reach (its own globals, the fields of the
  /// table the script returned, `map`, the script's top-level locals, the script's globals); a
  /// name after `a.b.` or `a.b:` among the members of what `a.b` is: a map's, marker's,
  /// overlay's or timer's properties after `.` and methods after `:` (the Lua API's own
  /// declarations), a table's string keys. Only chains of names are looked at, never calls,
  /// so completing runs no code of the script's.
  public func completions(of line: String) -> [String] {
    let word = Self.trailingName(of: line)
    guard let separator = word.lastIndex(where: { $0 == "." || $0 == ":" }) else {
      return Self.matching(reachableNames(), prefix: word)
    }
    let base = String(word[..<separator])
    let isMethod = word[separator] == ":"
    let partial = String(word[word.index(after: separator)...])
    guard !base.isEmpty, !base.contains(":") else { return [] }
    let members = self.members(of: base, methods: isMethod)
    return Self.matching(members, prefix: partial).map { base + String(word[separator]) + $0 }
  }

  /// The name chain (`a.b:c`) a line ends with; empty when it ends with anything else.
  static func trailingName(of line: String) -> String {
    let isNamePart = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "." || c == ":") }
    let word = String(line.reversed().prefix(while: isNamePart).reversed())
    guard let first = word.first, first.isLetter || first == "_" else { return "" }
    return word
  }

  private static func matching(_ names: [String], prefix: String) -> [String] {
    Array(Set(names.filter { $0.hasPrefix(prefix) })).sorted()
  }

  /// Every name a line resolves (see ``evaluate(_:)``).
  private func reachableNames() -> [String] {
    guard let state = session.state, !state.isClosed else { return [] }
    let stack = state.stack
    let base = stack.top
    defer { stack.setTop(base) }
    var names = ["map"]
    var tables: [LuaRef] = [replEnvironment, session.returned, session.locals].compactMap { $0 }
    if let environment = session.modules.environment { tables.append(environment) }
    for table in tables {
      stack.push(table)
      names += Self.stringKeys(ofTableAt: -1, on: stack)
      stack.pop()
    }
    return names.filter { Self.isName($0) }
  }

  /// The members of the value a name chain gives, evaluated in the REPL's environment.
  private func members(of chain: String, methods: Bool) -> [String] {
    guard let state = session.state, !state.isClosed,
      chain.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ Self.isName(String($0)) })
    else { return [] }
    let stack = state.stack
    let base = stack.top
    defer { stack.setTop(base) }
    do {
      try pushEvaluationTools(on: stack)
      try stack.load("return " + chain, chunkName: "=(completion)", environmentAt: base + 1)
      state.timeBudget = session.options.scriptBudget
      defer { state.timeBudget = nil }
      try stack.call(arguments: 0, results: 1)
    } catch {
      return []
    }
    switch stack.type(at: -1) {
    case .userdata:
      let type = stack.typeName(at: -1)
      guard type.hasPrefix("waymark.") else { return [] }
      return LuaAPI.entries(of: String(type.dropFirst("waymark.".count)))
        .filter { ($0.kind == .method) == methods }.map(\.name)
    case .table: return Self.stringKeys(ofTableAt: -1, on: stack).filter { Self.isName($0) }
    default: return []
    }
  }

  private static func stringKeys(ofTableAt index: Int32, on stack: LuaStack) -> [String] {
    (stack.sortedKeys(ofTableAt: index, atMost: 10_000) ?? []).compactMap { key in
      if case .string(let name) = key { return name }
      return nil
    }
  }

  /// Whether `text` is a Lua name (not a keyword).
  private static func isName(_ text: String) -> Bool {
    guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
      && !LuaLexer.keywords.contains(text)
  }
}
