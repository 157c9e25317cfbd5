/// The syntax tree of a Lua 5.4 chunk, as ``LuaParser`` builds it: every expression and
/// statement with the line it starts on, for the checks of `waymark check`.
package final class LuaExpr {
  /// The kinds of expression of the manual's section 3.4.
  package indirect enum Kind {
    case `nil`, `true`, `false`, vararg
    case number(Double)
    case string(String)
    case function(LuaFunctionSyntax)
    case table([LuaTableField])
    /// A name: a local, an upvalue or a global (``LuaScopes`` tells which).
    case name(String)
    /// `object.name`.
    case field(LuaExpr, String)
    /// `object[key]`.
    case index(LuaExpr, LuaExpr)
    /// `function(arguments)`.
    case call(LuaExpr, [LuaExpr])
    /// `object:name(arguments)`.
    case method(LuaExpr, String, [LuaExpr])
    case binary(String, LuaExpr, LuaExpr)
    case unary(String, LuaExpr)
    /// `(expression)`: one value.
    case parenthesized(LuaExpr)
  }

  let kind: Kind
  let line: Int
  /// The longest chain of expressions down from this one (1 for a leaf), which the parser
  /// bounds so that walking the tree, and freeing it, cannot exhaust the stack.
  let height: Int

  init(_ kind: Kind, line: Int) {
    self.kind = kind
    self.line = line
    let children: [LuaExpr]
    switch kind {
    case .field(let object, _): children = [object]
    case .index(let object, let key): children = [object, key]
    case .call(let function, let arguments): children = [function] + arguments
    case .method(let object, _, let arguments): children = [object] + arguments
    case .binary(_, let left, let right): children = [left, right]
    case .unary(_, let operand), .parenthesized(let operand): children = [operand]
    case .table(let fields): children = fields.flatMap { [$0.value] + ($0.key.map { [$0] } ?? []) }
    default: children = []
    }
    let inner = if case .function(let body) = kind { body.height } else { 0 }
    height = 1 + max(inner, children.map(\.height).max() ?? 0)
  }

  /// The string, if this is a string literal.
  var stringValue: String? {
    if case .string(let text) = kind { return text }
    return nil
  }
}

/// A field of a table constructor: `[key] = value`, `name = value` or a positional `value`.
package struct LuaTableField {
  /// The key: a string for `name = value`, nil for a positional value.
  let key: LuaExpr?
  /// Whether it was written `name = value`.
  let isNamed: Bool
  let value: LuaExpr
  let line: Int
}

/// A function body: parameters and block.
package final class LuaFunctionSyntax {
  let parameters: [LuaLocalName]
  let isVararg: Bool
  let body: [LuaStatement]
  let line: Int
  let endLine: Int
  /// The tallest expression inside (see ``LuaExpr/height``).
  let height: Int

  init(parameters: [LuaLocalName], isVararg: Bool, body: [LuaStatement], line: Int, endLine: Int, height: Int) {
    self.parameters = parameters
    self.isVararg = isVararg
    self.body = body
    self.line = line
    self.endLine = endLine
    self.height = height
  }
}

/// A name a statement declares, with its attribute (`<const>`, `<close>`) if any.
package struct LuaLocalName {
  /// The name declared.
  package let name: String
  /// `const` or `close`, nil without an attribute.
  package let attribute: String?
  let line: Int
}

/// A statement (the manual's section 3.3).
package final class LuaStatement {
  /// The kinds of statement.
  package enum Kind {
    case local([LuaLocalName], [LuaExpr])
    case assign([LuaExpr], [LuaExpr])
    case call(LuaExpr)
    case `do`([LuaStatement])
    case `while`(LuaExpr, [LuaStatement])
    case `repeat`([LuaStatement], LuaExpr)
    case `if`([(condition: LuaExpr, body: [LuaStatement])], else: [LuaStatement]?)
    case numericFor(LuaLocalName, LuaExpr, LuaExpr, LuaExpr?, [LuaStatement])
    case genericFor([LuaLocalName], [LuaExpr], [LuaStatement])
    /// `function a.b.c(...)` or `function a.b:c(...)`: the target path and whether the last
    /// step was `:` (the function then has an implicit `self`).
    case function(path: [String], isMethod: Bool, LuaFunctionSyntax)
    case localFunction(LuaLocalName, LuaFunctionSyntax)
    case `return`([LuaExpr])
    case `break`
    case goto(String)
    case label(String)
  }

  /// What the statement is, with its parts.
  package let kind: Kind
  let line: Int

  init(_ kind: Kind, line: Int) {
    self.kind = kind
    self.line = line
  }
}
