import WaymarkScripting

/// The top-level locals of a script, made reachable after its main chunk has run: a live
/// session runs the script with one statement added where its main chunk ends (before its
/// final `return`, on the same line, so no line number moves) that hands the chunk's only
/// argument a getter and a setter of each top-level local. The REPL reads a local through its
/// getter, so it sees the value the script's closures see now, and assigns through its
/// setter, so they see the REPL's value (`<const>` and `<close>` locals have no setter).
enum ScriptLocals {
  /// The source with the capturing statement added; nil when the source does not parse (the
  /// Lua compiler then reports it) or has no top-level local.
  static func capturing(_ source: LuaSource) -> LuaSource? {
    guard let chunk = try? LuaParser.parse(source), let tokens = try? LuaLexer.tokens(source) else { return nil }
    var names: [(name: String, assignable: Bool)] = []
    for statement in chunk {
      switch statement.kind {
      case .local(let locals, _): names += locals.map { ($0.name, $0.attribute == nil) }
      case .localFunction(let local, _): names.append((local.name, true))
      default: continue
      }
    }
    guard !names.isEmpty else { return nil }
    var latest: [String: Bool] = [:]
    var order: [String] = []
    for (name, assignable) in names {
      if latest[name] == nil { order.append(name) }
      latest[name] = assignable
    }
    let fields = order.map { name in
      let getter = "function() return \(name) end"
      return latest[name]! ? "\(name) = { \(getter), function(v) \(name) = v end }" : "\(name) = { \(getter) }"
    }
    let statement = " ;(...)[1] = { \(fields.joined(separator: ", ")) }; "
    var bytes = source.bytes
    let at = finalReturnOffset(tokens) ?? bytes.count
    bytes.insert(contentsOf: Array(statement.utf8), at: at)
    return LuaSource(bytes: bytes)
  }

  /// The offset of the main chunk's `return` (the first `return` outside every block and
  /// function), if it has one.
  private static func finalReturnOffset(_ tokens: [LuaToken]) -> Int? {
    var depth = 0
    for token in tokens where token.kind == .keyword {
      switch token.text {
      case "do", "if", "function", "repeat": depth += 1
      case "end", "until": depth -= 1
      case "return" where depth == 0: return token.offset
      default: continue
      }
    }
    return nil
  }
}
