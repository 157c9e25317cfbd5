/// Turns a fuzz input into a valid Lua program that always ends: loops have constant bounds
/// or counters, recursion is bounded. Each byte picks the next construct; past the last byte
/// every choice is the first one, so the program closes its blocks and ends. Its statements
/// run in protected groups, so a runtime error (a division by zero, arithmetic on nil) ends
/// a group with its message and the next group runs. The output is what the program
/// `say`s, one line each, and every group's error.
struct ProgramGenerator {
  private let bytes: [UInt8]
  private var at = 0
  private var lines: [String] = []
  private var depth = 0
  /// The names of integer locals in scope, innermost last (a while loop's counter is not one
  /// of them: no statement may reassign it).
  private var variables: [String] = []
  /// Loops around the statement in its own function (where `break` may go), and in all.
  private var loops = 0
  private var nesting = 0
  private var counter = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// A number below n from the next byte (0 once the input is used up).
  private mutating func choose(_ n: Int) -> Int {
    guard at < bytes.count else { return 0 }
    defer { at += 1 }
    return Int(bytes[at]) % n
  }

  private mutating func fresh(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)\(counter)"
  }

  private mutating func emit(_ line: String) { lines.append(String(repeating: "  ", count: depth) + line) }

  /// The whole program.
  mutating func program() -> String {
    lines = [
      "local out = {}",
      "local function say(...)",
      "  local t = table.pack(...)",
      "  for i = 1, t.n do t[i] = tostring(t[i]) end",
      "  out[#out + 1] = table.concat(t, \" \", 1, t.n)",
      "end",
      "local function closer(name)",
      "  return setmetatable({}, { __close = function(_, e) say(\"closed\", name, e) end })",
      "end",
      "local fs = {}",
    ]
    while at < bytes.count && lines.count < 400 {
      group()
    }
    lines.append("for i = 1, #fs do say(\"f\", i, pcall(fs[i])) end")
    lines.append("return table.concat(out, \"\\n\")")
    return lines.joined(separator: "\n")
  }

  /// A protected group of statements, in a function of its own; sometimes with more than 255
  /// constants, where bitwise operators can no longer name a constant operand.
  private mutating func group() {
    emit("say(pcall(function(...)")
    depth += 1
    let saved = variables
    if choose(4) == 0 {
      let constants = (1...260).map { "\($0).5" }.joined(separator: ", ")
      emit("local constants = { \(constants) }")
    }
    block(statements: 1 + choose(6))
    variables = saved
    depth -= 1
    emit("end))")
  }

  private mutating func block(statements: Int) {
    let saved = variables
    for _ in 0..<statements where at < bytes.count { statement() }
    variables = saved
  }

  private mutating func statement() {
    // Nesting is bounded, and so are loops within loops (at most 7^3 runs of a body).
    let deep = depth > 6 || nesting >= 3
    switch deep ? choose(4) : choose(14) {
    case 0:
      let name = fresh("v")
      emit("local \(name) = \(expression(2))")
      variables.append(name)
    case 1 where !variables.isEmpty:
      emit("\(variable()) = \(expression(2))")
    case 2:
      emit("say(\(expression(3)))")
    case 3 where loops > 0:
      emit(choose(2) == 0 ? "break" : "if \(expression(1)) == \(expression(1)) then break end")
    case 4:
      let name = fresh("i")
      emit("for \(name) = \(choose(5) - 2), \(choose(7)), \([1, 1, 2, -1][choose(4)]) do")
      loop(over: [name])
    case 5:
      let (k, v) = (fresh("k"), fresh("x"))
      let items = (0..<choose(5)).map { _ in expression(1) }.joined(separator: ", ")
      emit("for \(k), \(v) in \(choose(2) == 0 ? "ipairs" : "pairs")({ \(items) }) do")
      loop(over: [k, v])
    case 6:
      let count = fresh("n")
      emit("local \(count) = 0")
      emit("while \(count) < \(choose(6)) do")
      depth += 1
      emit("\(count) = \(count) + 1")
      depth -= 1
      loop(over: [])
    case 7:
      let name = fresh("c")
      emit("do")
      depth += 1
      emit("local \(name) <close> = closer(\"\(name)\")")
      block(statements: 1 + choose(4))
      depth -= 1
      emit("end")
    case 8:
      let (name, parameter) = (fresh("g"), fresh("p"))
      emit("local function \(name)(\(parameter), depth)")
      depth += 1
      let saved = (variables, loops)
      variables.append(parameter)
      loops = 0
      emit("if depth > 3 then return \(parameter) end")
      block(statements: 1 + choose(3))
      emit("return \(expression(2)) + (\(name)(\(parameter), depth + 1) or 0)")
      (variables, loops) = saved
      depth -= 1
      emit("end")
      emit("say(\"\(name)\", pcall(\(name), \(expression(1)), 0))")
    case 9:
      emit("if \(expression(2)) \(["<", "<=", "==", "~="][choose(4)]) \(expression(2)) then")
      depth += 1
      block(statements: 1 + choose(3))
      depth -= 1
      emit("else")
      depth += 1
      block(statements: choose(3))
      depth -= 1
      emit("end")
    case 10:
      emit("fs[#fs + 1] = function() return \(expression(2)) end")
    case 11:
      emit("say(\(expression(1)) \(["//", "%", "&", "|", "~", "<<", ">>"][choose(7)]) \(expression(1)))")
    case 12:
      emit("error(\(expression(1)))")
    default:
      emit("say(\(bitwise()))")
    }
  }

  /// The body of a loop whose variables are `names`: it may leave by `break` or skip ahead by
  /// `goto` to the label that ends it, and closures may capture its variables.
  private mutating func loop(over names: [String]) {
    depth += 1
    loops += 1
    nesting += 1
    let saved = variables
    variables += names
    let label = fresh("continue")
    if choose(2) == 0 { emit("if \(expression(1)) == 1 then goto \(label) end") }
    if choose(2) == 0, let name = names.first { emit("fs[#fs + 1] = function() return \(name) end") }
    block(statements: 1 + choose(4))
    emit("::\(label)::")
    variables = saved
    loops -= 1
    nesting -= 1
    depth -= 1
    emit("end")
  }

  private mutating func variable() -> String { variables[choose(variables.count)] }

  /// A bitwise operation with a constant left operand and a right operand whose value comes
  /// through jumps: the shape Lua 5.4.4 miscompiles past 255 constants.
  private mutating func bitwise() -> String {
    let right = variables.isEmpty ? "(unset or 3)" : "(\(variable()) or \(choose(9)))"
    let left = ["1", "7", "255", "2 ^ 53 // 1", "3"][choose(5)]
    return "pcall(function() return \(left) \(["&", "|", "~", "<<", ">>"][choose(5)]) \(right) end)"
  }

  /// An expression of integers (or nil, from a parameter never given) up to `levels` deep.
  private mutating func expression(_ levels: Int) -> String {
    switch levels <= 0 ? choose(2) : choose(8) {
    case 0: return "\(choose(11) - 3)"
    case 1: return variables.isEmpty ? "\(choose(300))" : variable()
    case 2: return "(\(expression(levels - 1)) \(["+", "-", "*", "//", "%"][choose(5)]) \(expression(levels - 1)))"
    case 3: return "(\(expression(levels - 1)) \(["&", "|", "~", "<<", ">>"][choose(5)]) \(expression(levels - 1)))"
    case 4: return "(\(expression(levels - 1)) and \(expression(levels - 1)) or \(expression(levels - 1)))"
    case 5: return "((\(expression(levels - 1)) < \(expression(levels - 1))) and 1 or 0)"
    case 6: return "#{ \(expression(levels - 1)), \(expression(levels - 1)) }"
    default: return "(\(expression(levels - 1)) or \(choose(5)))"
    }
  }
}
