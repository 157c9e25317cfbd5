/// A recursive-descent parser of Lua 5.4 (the complete syntax of the manual's section 9):
/// statements, expressions with the manual's precedences and associativity, table
/// constructors, function bodies, `goto` and labels, attributes `<const>` and `<close>`.
///
/// It builds the tree the checks of `waymark check` walk; the real Lua compiler remains the
/// judge of syntax errors (the checker compiles every file with it first), so this parser
/// only has to accept every valid chunk and build it faithfully.
///
/// ```swift
/// let chunk = try LuaParser.parse(LuaSource("local x <const> = 1 // 2"))
/// ```
package struct LuaParser {
  private var tokens: [LuaToken]
  private var position = 0
  /// How deep statements and expressions nest now: bounded like Lua's own parser (which
  /// stops at 200 levels), so no input can exhaust the stack.
  private var depth = 0
  static let maxDepth = 250
  /// The tallest expression of each function being parsed, innermost last.
  private var heights = [0]

  /// The statements of a chunk.
  package static func parse(_ source: LuaSource) throws(LuaSyntaxError) -> [LuaStatement] {
    var parser = LuaParser(tokens: try LuaLexer.tokens(source))
    let block = try parser.block()
    guard parser.current.kind == .end else { throw parser.unexpected() }
    return block
  }

  private init(tokens: [LuaToken]) { self.tokens = tokens }

  // MARK: - Tokens

  var current: LuaToken { tokens[position] }
  private var lookahead: LuaToken { tokens[min(position + 1, tokens.count - 1)] }

  private func check(_ text: String) -> Bool {
    (current.kind == .symbol || current.kind == .keyword) && current.text == text
  }

  private mutating func advance() -> LuaToken {
    let token = current
    if position < tokens.count - 1 { position += 1 }
    return token
  }

  private mutating func accept(_ text: String) -> Bool {
    guard check(text) else { return false }
    _ = advance()
    return true
  }

  private mutating func expect(_ text: String, closing opener: String? = nil, at line: Int? = nil)
    throws(LuaSyntaxError)
  {
    guard accept(text) else {
      if let opener, let line, line != current.line {
        throw LuaSyntaxError(
          line: current.line,
          message: "'\(text)' expected (to close '\(opener)' at line \(line)) near \(near(current))")
      }
      throw LuaSyntaxError(line: current.line, message: "'\(text)' expected near \(near(current))")
    }
  }

  private mutating func name() throws(LuaSyntaxError) -> String {
    guard current.kind == .name else {
      throw LuaSyntaxError(line: current.line, message: "<name> expected near \(near(current))")
    }
    return advance().text
  }

  func unexpected() -> LuaSyntaxError {
    LuaSyntaxError(line: current.line, message: "unexpected symbol near \(near(current))")
  }

  private func near(_ token: LuaToken) -> String {
    token.kind == .end ? "<eof>" : token.kind == .string ? "'\"\(token.text)\"'" : "'\(token.text)'"
  }

  // MARK: - Statements

  private var blockEnds: Bool {
    current.kind == .end || check("end") || check("else") || check("elseif") || check("until")
  }

  private mutating func block() throws(LuaSyntaxError) -> [LuaStatement] {
    var statements: [LuaStatement] = []
    while !blockEnds {
      if check("return") {
        let line = advance().line
        var values: [LuaExpr] = []
        if !blockEnds, !check(";") { values = try expressionList() }
        _ = accept(";")
        guard blockEnds else {
          throw LuaSyntaxError(line: current.line, message: "'end' expected near \(near(current))")
        }
        statements.append(LuaStatement(.return(values), line: line))
        break
      }
      if let statement = try statement() { statements.append(statement) }
    }
    return statements
  }

  /// The tallest expression tree accepted: long left-associative chains (`a + b + ...`,
  /// `f()()...`, `a.b.c...`) are built in a loop, not by recursion, so they are bounded here.
  static let maxHeight = 300

  private mutating func bounded(_ expression: LuaExpr) throws(LuaSyntaxError) -> LuaExpr {
    guard expression.height <= Self.maxHeight else {
      throw LuaSyntaxError(line: expression.line, message: "expression too deeply nested for waymark check")
    }
    heights[heights.count - 1] = max(heights[heights.count - 1], expression.height)
    return expression
  }

  private mutating func enter() throws(LuaSyntaxError) {
    depth += 1
    guard depth <= Self.maxDepth else {
      throw LuaSyntaxError(line: current.line, message: "chunk has too many syntax levels")
    }
  }

  private mutating func statement() throws(LuaSyntaxError) -> LuaStatement? {
    try enter()
    defer { depth -= 1 }
    let line = current.line
    if accept(";") { return nil }
    if accept("::") {
      let label = try name()
      try expect("::")
      return LuaStatement(.label(label), line: line)
    }
    if accept("break") { return LuaStatement(.break, line: line) }
    if accept("goto") { return LuaStatement(.goto(try name()), line: line) }
    if accept("do") {
      let body = try block()
      try expect("end", closing: "do", at: line)
      return LuaStatement(.do(body), line: line)
    }
    if accept("while") {
      let condition = try expression()
      try expect("do")
      let body = try block()
      try expect("end", closing: "while", at: line)
      return LuaStatement(.while(condition, body), line: line)
    }
    if accept("repeat") {
      let body = try block()
      try expect("until", closing: "repeat", at: line)
      return LuaStatement(.repeat(body, try expression()), line: line)
    }
    if accept("if") { return try ifStatement(line: line) }
    if accept("for") { return try forStatement(line: line) }
    if accept("function") {
      var path = [try name()]
      var isMethod = false
      while accept(".") { path.append(try name()) }
      if accept(":") {
        path.append(try name())
        isMethod = true
      }
      return LuaStatement(.function(path: path, isMethod: isMethod, try functionBody(line: line)), line: line)
    }
    if accept("local") {
      if accept("function") {
        let nameLine = current.line
        let local = LuaLocalName(name: try name(), attribute: nil, line: nameLine)
        return LuaStatement(.localFunction(local, try functionBody(line: line)), line: line)
      }
      var names: [LuaLocalName] = []
      repeat {
        let nameLine = current.line
        let local = try name()
        var attribute: String?
        if accept("<") {
          attribute = try name()
          guard attribute == "const" || attribute == "close" else {
            throw LuaSyntaxError(line: nameLine, message: "unknown attribute '\(attribute!)'")
          }
          try expect(">")
        }
        names.append(LuaLocalName(name: local, attribute: attribute, line: nameLine))
      } while accept(",")
      let values = accept("=") ? try expressionList() : []
      return LuaStatement(.local(names, values), line: line)
    }
    return try expressionStatement(line: line)
  }

  private mutating func ifStatement(line: Int) throws(LuaSyntaxError) -> LuaStatement {
    var branches: [(condition: LuaExpr, body: [LuaStatement])] = []
    var elseBody: [LuaStatement]?
    repeat {
      let condition = try expression()
      try expect("then")
      branches.append((condition, try block()))
    } while accept("elseif")
    if accept("else") { elseBody = try block() }
    try expect("end", closing: "if", at: line)
    return LuaStatement(.if(branches, else: elseBody), line: line)
  }

  private mutating func forStatement(line: Int) throws(LuaSyntaxError) -> LuaStatement {
    let firstLine = current.line
    let first = LuaLocalName(name: try name(), attribute: nil, line: firstLine)
    if accept("=") {
      let start = try expression()
      try expect(",")
      let limit = try expression()
      let step = accept(",") ? try expression() : nil
      try expect("do")
      let body = try block()
      try expect("end", closing: "for", at: line)
      return LuaStatement(.numericFor(first, start, limit, step, body), line: line)
    }
    var names = [first]
    while accept(",") {
      let nameLine = current.line
      names.append(LuaLocalName(name: try name(), attribute: nil, line: nameLine))
    }
    guard accept("in") else {
      throw LuaSyntaxError(line: current.line, message: "'=' or 'in' expected near \(near(current))")
    }
    let values = try expressionList()
    try expect("do")
    let body = try block()
    try expect("end", closing: "for", at: line)
    return LuaStatement(.genericFor(names, values, body), line: line)
  }

  private mutating func expressionStatement(line: Int) throws(LuaSyntaxError) -> LuaStatement {
    let first = try suffixedExpression()
    if check("=") || check(",") {
      var targets = [first]
      while accept(",") { targets.append(try suffixedExpression()) }
      for target in targets {
        switch target.kind {
        case .name, .field, .index: continue
        default: throw LuaSyntaxError(line: target.line, message: "syntax error near \(near(current))")
        }
      }
      try expect("=")
      return LuaStatement(.assign(targets, try expressionList()), line: line)
    }
    switch first.kind {
    case .call, .method: return LuaStatement(.call(first), line: line)
    default: throw LuaSyntaxError(line: current.line, message: "syntax error near \(near(current))")
    }
  }

  // MARK: - Functions

  mutating func functionBody(line: Int) throws(LuaSyntaxError) -> LuaFunctionSyntax {
    try expect("(")
    var parameters: [LuaLocalName] = []
    var isVararg = false
    if !check(")") {
      repeat {
        if accept("...") {
          isVararg = true
          break
        }
        let nameLine = current.line
        parameters.append(LuaLocalName(name: try name(), attribute: nil, line: nameLine))
      } while accept(",")
    }
    try expect(")")
    heights.append(0)
    let body = try block()
    let height = heights.removeLast()
    let endLine = current.line
    try expect("end", closing: "function", at: line)
    return LuaFunctionSyntax(
      parameters: parameters, isVararg: isVararg, body: body, line: line, endLine: endLine, height: height)
  }

  // MARK: - Expressions

  mutating func expressionList() throws(LuaSyntaxError) -> [LuaExpr] {
    var list = [try expression()]
    while accept(",") { list.append(try expression()) }
    return list
  }

  /// Left and right priorities of the binary operators (lparser.c's `priority`).
  private static let priorities: [String: (left: Int, right: Int)] = [
    "+": (10, 10), "-": (10, 10), "*": (11, 11), "%": (11, 11), "^": (14, 13), "/": (11, 11), "//": (11, 11),
    "&": (6, 6), "|": (4, 4), "~": (5, 5), "<<": (7, 7), ">>": (7, 7), "..": (9, 8),
    "==": (3, 3), "<": (3, 3), "<=": (3, 3), "~=": (3, 3), ">": (3, 3), ">=": (3, 3), "and": (2, 2), "or": (1, 1),
  ]
  private static let unaryPriority = 12

  mutating func expression(limit: Int = 0) throws(LuaSyntaxError) -> LuaExpr {
    try enter()
    defer { depth -= 1 }
    var left: LuaExpr
    let line = current.line
    if (current.kind == .symbol && ["-", "#", "~"].contains(current.text)) || check("not") {
      let op = advance().text
      left = LuaExpr(.unary(op, try expression(limit: Self.unaryPriority)), line: line)
    } else {
      left = try simpleExpression()
    }
    while current.kind == .symbol || current.kind == .keyword,
      let priority = Self.priorities[current.text], priority.left > limit
    {
      let op = advance()
      let right = try expression(limit: priority.right)
      left = try bounded(LuaExpr(.binary(op.text, left, right), line: op.line))
    }
    return try bounded(left)
  }

  private mutating func simpleExpression() throws(LuaSyntaxError) -> LuaExpr {
    let token = current
    switch token.kind {
    case .number:
      _ = advance()
      return LuaExpr(.number(token.number), line: token.line)
    case .string:
      _ = advance()
      return LuaExpr(.string(token.text), line: token.line)
    default: break
    }
    if accept("nil") { return LuaExpr(.nil, line: token.line) }
    if accept("true") { return LuaExpr(.true, line: token.line) }
    if accept("false") { return LuaExpr(.false, line: token.line) }
    if accept("...") { return LuaExpr(.vararg, line: token.line) }
    if check("{") { return try tableConstructor() }
    if accept("function") { return LuaExpr(.function(try functionBody(line: token.line)), line: token.line) }
    return try suffixedExpression()
  }

  private mutating func primaryExpression() throws(LuaSyntaxError) -> LuaExpr {
    let token = current
    if token.kind == .name {
      _ = advance()
      return LuaExpr(.name(token.text), line: token.line)
    }
    if accept("(") {
      let inner = try expression()
      try expect(")", closing: "(", at: token.line)
      return LuaExpr(.parenthesized(inner), line: token.line)
    }
    throw unexpected()
  }

  private mutating func suffixedExpression() throws(LuaSyntaxError) -> LuaExpr {
    var expression = try primaryExpression()
    while true {
      let line = current.line
      if accept(".") {
        expression = LuaExpr(.field(expression, try name()), line: line)
      } else if accept("[") {
        let key = try self.expression()
        try expect("]")
        expression = LuaExpr(.index(expression, key), line: line)
      } else if accept(":") {
        let method = try name()
        expression = LuaExpr(.method(expression, method, try arguments()), line: line)
      } else if check("(") || check("{") || current.kind == .string {
        expression = LuaExpr(.call(expression, try arguments()), line: line)
      } else {
        return expression
      }
      expression = try bounded(expression)
    }
  }

  private mutating func arguments() throws(LuaSyntaxError) -> [LuaExpr] {
    let token = current
    if token.kind == .string {
      _ = advance()
      return [LuaExpr(.string(token.text), line: token.line)]
    }
    if check("{") { return [try tableConstructor()] }
    guard accept("(") else {
      throw LuaSyntaxError(line: token.line, message: "function arguments expected near \(near(token))")
    }
    if accept(")") { return [] }
    let list = try expressionList()
    try expect(")", closing: "(", at: token.line)
    return list
  }

  private mutating func tableConstructor() throws(LuaSyntaxError) -> LuaExpr {
    let line = current.line
    try expect("{")
    var fields: [LuaTableField] = []
    while !check("}") {
      let fieldLine = current.line
      if current.kind == .name, lookahead.kind == .symbol, lookahead.text == "=" {
        let key = advance()
        _ = advance()
        fields.append(
          LuaTableField(
            key: LuaExpr(.string(key.text), line: key.line), isNamed: true, value: try expression(), line: fieldLine))
      } else if accept("[") {
        let key = try expression()
        try expect("]")
        try expect("=")
        fields.append(LuaTableField(key: key, isNamed: false, value: try expression(), line: fieldLine))
      } else {
        fields.append(LuaTableField(key: nil, isNamed: false, value: try expression(), line: fieldLine))
      }
      guard accept(",") || accept(";") else { break }
    }
    try expect("}", closing: "{", at: line)
    return LuaExpr(.table(fields), line: line)
  }
}
