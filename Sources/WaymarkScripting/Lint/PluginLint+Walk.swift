import Foundation
import WaymarkCore

/// The walk: statements in order, scopes as Lua opens them, the type of every expression.
extension PluginLint {
  func walk(block: [LuaStatement]) {
    for statement in block { walk(statement) }
  }

  private func walk(_ statement: LuaStatement) {
    let line = statement.line
    switch statement.kind {
    case .local(let names, let values):
      let types = values.map { type(of: $0) }
      for (index, local) in names.enumerated() {
        var type = index < types.count ? types[index] : .unknown
        if scopes.count == 1, functions.isEmpty, local.name == pluginName {
          type = .plugin
          if index < values.count, case .table(let fields) = values[index].kind { definePluginFields(fields) }
        }
        declare(local.name, type == .nil ? .unknown : type)
      }
    case .assign(let targets, let values):
      for (index, target) in targets.enumerated() {
        let value = index < values.count ? values[index] : nil
        assign(target, value: value, line: line)
      }
      for value in values.dropFirst(targets.count) { _ = type(of: value) }
    case .call(let call):
      _ = type(of: call)
    case .do(let body):
      inScope { walk(block: body) }
    case .while(let condition, let body):
      _ = type(of: condition)
      inScope { walk(block: body) }
    case .repeat(let body, let condition):
      inScope {
        walk(block: body)
        _ = type(of: condition)
      }
    case .if(let branches, let elseBody):
      for branch in branches {
        if !isLua51Test(branch.condition) { _ = type(of: branch.condition) }
        inScope { walk(block: branch.body) }
      }
      if let elseBody { inScope { walk(block: elseBody) } }
    case .numericFor(let variable, let start, let limit, let step, let body):
      for expression in [start, limit] + (step.map { [$0] } ?? []) { _ = type(of: expression) }
      inScope {
        declare(variable.name, .number)
        walk(block: body)
      }
    case .genericFor(let names, let values, let body):
      for value in values { _ = type(of: value) }
      inScope {
        for local in names { declare(local.name, .unknown) }
        walk(block: body)
      }
    case .function(let path, let isMethod, let body):
      defineFunction(path: path, isMethod: isMethod, body: body, line: line)
    case .localFunction(let local, let body):
      declare(local.name, .function)
      walk(function: body, handler: nil, parameterTypes: [])
    case .return(let values):
      if kind == .plugin, functions.isEmpty, scopes.count == 1, values.count == 1,
        case .table(let fields) = values[0].kind
      {
        definePluginFields(fields)
        return
      }
      let types = values.map { type(of: $0) }
      if let context = functions.last, let first = values.first {
        returns.append(Return(functionLine: context.line, line: line, type: types[0]))
        if let handler = context.handler { checkReturn(first, type: types[0], of: handler) }
      }
    case .break, .goto, .label:
      break
    }
  }

  /// `target = value` (value nil when the list of values is shorter).
  private func assign(_ target: LuaExpr, value: LuaExpr?, line: Int) {
    switch target.kind {
    case .name(let name):
      let valueType = value.map { type(of: $0) } ?? .nil
      if let variable = lookup(name) {
        if variable.type != valueType { variable.type = .unknown }
      } else {
        setGlobal(name, line: target.line)
      }
    case .field(let object, let name):
      let objectType = type(of: object)
      if objectType == .plugin, let value, case .function(let body) = value.kind {
        defineHandler(name, body: body, isMethod: false, line: value.line)
        return
      }
      let valueType = value.map { type(of: $0) } ?? .nil
      checkAssignment(to: name, of: objectType, object: object, valueType: valueType, line: target.line)
    case .index(let object, let key):
      _ = type(of: object)
      _ = type(of: key)
      if let value { _ = type(of: value) }
    default:
      if let value { _ = type(of: value) }
    }
  }

  /// `function a.b.c(...)` / `function a.b:c(...)`.
  private func defineFunction(path: [String], isMethod: Bool, body: LuaFunctionSyntax, line: Int) {
    if path.count == 1 {
      if lookup(path[0]) == nil { setGlobal(path[0], line: line) }
      walk(function: body, handler: nil, parameterTypes: [])
      return
    }
    var objectType = lookup(path[0])?.type ?? readGlobal(path[0], line: line)
    for step in path.dropFirst().dropLast() { objectType = objectType.member(step) }
    if path.count == 2, objectType == .plugin {
      defineHandler(path[1], body: body, isMethod: isMethod, line: line)
      return
    }
    walk(function: body, handler: nil, parameterTypes: [], selfType: isMethod ? objectType : nil)
  }

  /// Walks a function body in a new scope with its parameters' types.
  func walk(
    function body: LuaFunctionSyntax, handler: LuaHandlerSignature?, parameterTypes: [LintType],
    selfType: LintType? = nil
  ) {
    functions.append(FunctionContext(handler: handler, line: body.line))
    defer { functions.removeLast() }
    inScope {
      if let selfType { declare("self", selfType) }
      for (index, parameter) in body.parameters.enumerated() {
        declare(parameter.name, index < parameterTypes.count ? parameterTypes[index] : .unknown)
      }
      walk(block: body.body)
    }
  }

  // MARK: - Expressions

  /// Walks an expression, checking what it uses, and answers the type of its value.
  func type(of expression: LuaExpr) -> LintType {
    switch expression.kind {
    case .nil: return .nil
    case .true, .false: return .boolean
    case .vararg: return .unknown
    case .number: return .number
    case .string: return .string
    case .function(let body):
      walk(function: body, handler: nil, parameterTypes: [])
      return .function
    case .table(let fields):
      for field in fields {
        if let key = field.key, !field.isNamed { _ = type(of: key) }
        _ = type(of: field.value)
      }
      return .table
    case .name(let name):
      if let variable = lookup(name) { return variable.type }
      return readGlobal(name, line: expression.line)
    case .field(let object, let name):
      let objectType = type(of: object)
      return read(name, of: objectType, object: object, line: expression.line)
    case .index(let object, let key):
      _ = type(of: object)
      _ = type(of: key)
      return .unknown
    case .call(let function, let arguments):
      return call(function, arguments, line: expression.line)
    case .method(let object, let name, let arguments):
      let objectType = type(of: object)
      let argumentTypes = arguments.map { type(of: $0) }
      return callMethod(name, of: objectType, object: object, arguments, argumentTypes, line: expression.line)
    case .binary(let op, let left, let right):
      if !((op == "and" || op == "or") && isLua51Test(left)) { _ = type(of: left) }
      _ = type(of: right)
      switch op {
      case "..": return .string
      case "==", "~=", "<", "<=", ">", ">=": return .boolean
      case "and", "or": return .unknown
      default: return .number
      }
    case .unary(let op, let operand):
      _ = type(of: operand)
      return op == "not" ? .boolean : .number
    case .parenthesized(let inner):
      return type(of: inner)
    }
  }

  /// `function(arguments)`: checks calls of the script library and `waymark.map`.
  private func call(_ function: LuaExpr, _ arguments: [LuaExpr], line: Int) -> LintType {
    _ = type(of: function)
    let argumentTypes = arguments.map { type(of: $0) }
    if case .field(let object, let method) = function.kind, case .object(let owner) = type(of: object),
      LuaAPI.entry(owner, method)?.kind == .method,
      arguments.first.map({ text(of: $0) != text(of: object) }) ?? true
    {
      let receiver = text(of: object)
      report(line, "\(receiver).\(method)(...) calls a method with '.': write \(receiver):\(method)(...)")
      return .unknown
    }
    let name: String?
    switch function.kind {
    case .name(let global) where lookup(global) == nil: name = global
    case .field(let object, let field):
      if case .name(let module) = object.kind, lookup(module) == nil { name = "\(module).\(field)" } else { name = nil }
    default: name = nil
    }
    if name == "require", let module = arguments.first?.stringValue { checkRequire(module, line: line) }
    let library = ScriptSignatures.all
    guard kind == .script, let name, let signature = library.first(where: { $0.name == name }) else {
      return .unknown
    }
    checkArguments(arguments, argumentTypes, against: signature.parameters, callee: "\(name)", line: line)
    return signature.returns.map(LintType.init(luaLS:)) ?? .unknown
  }

  /// `require("name")`: the module must be a library's name (``ModuleLoader/libraryNames``) or
  /// a Lua file where the sandbox's `require` looks (the file's folder, then the module roots).
  private func checkRequire(_ module: String, line: Int) {
    guard !ModuleLoader.libraryNames.contains(module) else { return }
    let message: String
    switch modules.locate(module, requirer: nil, path: modules.path) {
    case .found: return
    case .refused(let reason): message = reason
    case .missing(let lines):
      if let library = modules.cLibrary(for: module, cpath: modules.cpath) {
        message = "module '\(module)' is a C library (\(library)): the sandbox loads Lua source only, never C code"
        break
      }
      let tried = lines.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { $0.hasPrefix("no file '") }.map { $0.dropFirst(9).dropLast() }
      let roots =
        modules.roots.isEmpty ? "no module roots given" : "module roots: " + modules.roots.joined(separator: ", ")
      let folder = modules.folder
      let nearby = PluginFiles.luaFiles(under: folder).map { relative -> String in
        let name = relative.hasPrefix(folder + "/") ? String(relative.dropFirst(folder.count + 1)) : relative
        return String(name.dropLast(4)).replacingOccurrences(of: "/", with: ".")
      }
      message =
        "no file \(tried.joined(separator: ", ")) (\(roots))" + Suggestion.hint(for: module, among: nearby)
    }
    report(line, "require(\"\(module)\"): " + message)
  }

  /// Whether `expression` is a Lua 5.1 name no local declares (`unpack`, `math.pow`), tested
  /// rather than used (`unpack or table.unpack`, `if unpack then`): portable code does that,
  /// and in Lua 5.4 the name reads as nil.
  private func isLua51Test(_ expression: LuaExpr) -> Bool {
    switch expression.kind {
    case .name(let name): lookup(name) == nil && PluginSandbox.lua51Names[name] != nil
    case .field(let object, let field):
      if case .name(let library) = object.kind, lookup(library) == nil {
        PluginSandbox.lua51Names["\(library).\(field)"] != nil
      } else {
        false
      }
    default: false
    }
  }
}
