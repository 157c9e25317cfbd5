import Foundation
import WaymarkCore

/// The rules: handlers, members, arguments, option tables, return values.
extension PluginLint {
  /// Every handler and lifecycle function of a plugin table, by name.
  static let signatures: [String: LuaHandlerSignature] = Dictionary(
    (LuaAPI.lifecycle + LuaAPI.handlers).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

  /// The fields of the plugin's table constructor: handlers written as `name = function`.
  func definePluginFields(_ fields: [LuaTableField]) {
    for field in fields {
      guard let name = field.key?.stringValue, case .function(let body) = field.value.kind else {
        _ = type(of: field.value)
        continue
      }
      defineHandler(name, body: body, isMethod: false, line: field.line)
    }
  }

  /// A function stored in the plugin table: a handler (typed arguments, checked returns)
  /// when the name is one, else a plain function.
  func defineHandler(_ name: String, body: LuaFunctionSyntax, isMethod: Bool, line: Int) {
    guard let signature = Self.signatures[name] else {
      walk(function: body, handler: nil, parameterTypes: [], selfType: isMethod ? .plugin : nil)
      return
    }
    let expected = signature.parameters.map(\.name).joined(separator: ", ")
    if isMethod {
      report(
        line,
        "plugin:\(name) is defined with ':', so the map arrives as self and every argument one place off; define it with '.': function plugin.\(name)(\(expected))"
      )
      walk(function: body, handler: signature, parameterTypes: [], selfType: .unknown)
      return
    }
    let names = signature.parameters.map(\.name)
    for (index, parameter) in body.parameters.enumerated() {
      guard let meant = names.firstIndex(of: parameter.name), meant != index else { continue }
      let written = body.parameters.map(\.name).joined(separator: ", ")
      report(
        parameter.line,
        "\(name)(\(written)): \(name) is called as \(name)(\(expected)), so '\(parameter.name)' here receives the \(index < names.count ? names[index] : "nothing")"
      )
      walk(function: body, handler: signature, parameterTypes: [])
      return
    }
    walk(
      function: body, handler: signature, parameterTypes: signature.parameters.map { LintType(luaLS: $0.type) })
  }

  /// `object.name` read: the member must exist when the object's type is known.
  func read(_ name: String, of objectType: LintType, object: LuaExpr, line: Int) -> LintType {
    switch objectType {
    case .object(let owner):
      if LuaAPI.entry(owner, name) == nil {
        report(line, "\(text(of: object)).\(name): " + LuaAPI.unknownMember(name, of: owner))
        return .unknown
      }
    case .shape(let shape):
      if let fields = objectType.members, !fields.contains(name) {
        report(
          line,
          "\(text(of: object)).\(name): a \(shape) has no field '\(name)'" + Suggestion.hint(for: name, among: fields))
        return .unknown
      }
    case .library(let library):
      if let refusal = PluginSandbox.refusals["\(library).\(name)"] ?? PluginSandbox.lua51Names["\(library).\(name)"],
        library != "io" || sandbox.refusesIO(name)
      {
        report(line, refusal)
      } else if let members = sandbox.members(of: library), !members.contains(name) {
        report(
          line,
          "\(library).\(name): \(library) has no field '\(name)'" + Suggestion.hint(for: name, among: members.sorted()))
      }
      return .unknown
    default: break
    }
    return objectType.member(name)
  }

  /// `object.name = value`: the member must exist and be assignable, and take the value;
  /// a field of a table an object's property returned (`marker.position.lat = 3`) changes
  /// only that copy.
  func checkAssignment(to name: String, of objectType: LintType, object: LuaExpr, valueType: LintType, line: Int) {
    if case .shape = objectType, case .field(let inner, let property) = object.kind,
      case .object(let owner) = type(of: inner), LuaAPI.entry(owner, property)?.kind == .property
    {
      let path = text(of: object)
      report(
        line,
        "\(path).\(name) = ... changes a copy: \(path) gives a new table each time; assign the whole value (\(path) = { ... })",
        .warning)
      return
    }
    guard case .object(let owner) = objectType else { return }
    guard let entry = LuaAPI.entry(owner, name) else {
      report(line, "\(text(of: object)).\(name): " + LuaAPI.unknownMember(name, of: owner))
      return
    }
    switch entry.kind {
    case .method: report(line, "\(text(of: object)).\(name) is a method; it cannot be assigned")
    case .readOnlyProperty: report(line, "\(text(of: object)).\(name) is read-only")
    case .property:
      let expected = objectType.member(name)
      if !expected.accepts(valueType) {
        report(line, "\(text(of: object)).\(name) must be \(expected.described), got \(valueType.described)")
      }
    }
  }

  /// `object:name(arguments)`.
  func callMethod(
    _ name: String, of objectType: LintType, object: LuaExpr, _ arguments: [LuaExpr], _ argumentTypes: [LintType],
    line: Int
  ) -> LintType {
    let callee = "\(text(of: object)):\(name)"
    switch objectType {
    case .object(let owner):
      guard let entry = LuaAPI.entry(owner, name) else {
        report(line, "\(callee): " + LuaAPI.unknownMember(name, of: owner, asMethod: true))
        return .unknown
      }
      guard entry.kind == .method else {
        report(
          line, "\(callee): \(name) is a field of a \(owner), not a method; read it as \(text(of: object)).\(name)")
        return .unknown
      }
      checkArguments(arguments, argumentTypes, against: entry.parameters, callee: callee, line: line)
      return entry.type.map(LintType.init(luaLS:)) ?? .unknown
    case .string:
      if let members = sandbox.members(of: "string"), !members.contains(name) {
        report(line, "\(callee): string has no method '\(name)'" + Suggestion.hint(for: name, among: members.sorted()))
      }
      return .unknown
    case .shape(let shape):
      report(line, "\(callee): a \(shape) is a plain table; it has no methods")
      return .unknown
    default:
      return .unknown
    }
  }

  /// Arguments against parameters: a certain type mismatch, and unknown fields of literal
  /// option tables.
  func checkArguments(
    _ arguments: [LuaExpr], _ types: [LintType], against parameters: [LuaAPIParameter], callee: String, line: Int
  ) {
    let spreads =
      arguments.last.map { argument in
        switch argument.kind {
        case .call, .method, .vararg: true
        default: false
        }
      } ?? false
    if !spreads, arguments.count < parameters.count, Self.isRequired(parameters[arguments.count]) {
      let call = "\(callee)(\(parameters.map(\.name).joined(separator: ", ")))"
      report(line, "\(call): \(parameters[arguments.count].name) is missing")
    }
    for (index, argument) in arguments.enumerated() where index < parameters.count {
      let parameter = parameters[index]
      let expected = LintType(luaLS: parameter.type)
      guard expected.accepts(types[index]) else {
        let call = "\(callee)(\(parameters.map(\.name).joined(separator: ", ")))"
        if index + 1 < min(arguments.count, parameters.count),
          LintType(luaLS: parameters[index + 1].type).accepts(types[index]),
          expected.accepts(types[index + 1]), types[index].basic != nil, types[index + 1].basic != nil
        {
          report(
            argument.line,
            "\(call): \(parameters[index].name) and \(parameters[index + 1].name) are swapped (\(types[index].described) first, \(types[index + 1].described) second)"
          )
          return
        }
        report(
          argument.line,
          "\(call): \(parameter.name) must be \(expected.described), got \(types[index].described)"
            + (index == 0 && arguments.count == 1 ? "" : " (argument \(index + 1))"))
        continue
      }
      if case .table(let fields) = argument.kind {
        checkTable(fields, as: expected, what: "\(callee) \(parameter.name)")
      }
    }
  }

  /// The named fields of a literal table against the shapes it may be, recursively.
  func checkTable(_ fields: [LuaTableField], as type: LintType, what: String) {
    let shapes: [LuaAPIShape]
    switch type {
    case .shape(let name): shapes = LintType.shape(named: name).map { [$0] } ?? []
    case .union(let types):
      shapes = types.compactMap { if case .shape(let name) = $0 { LintType.shape(named: name) } else { nil } }
    default: shapes = []
    }
    guard !shapes.isEmpty else { return }
    var allowed: [String] = []
    for field in shapes.flatMap(\.fields) where !allowed.contains(field.name) { allowed.append(field.name) }
    if shapes.contains(where: { $0.name == "CameraUpdate" }) {
      let named = fields.filter(\.isNamed).compactMap { field in field.key?.stringValue.map { ($0, field.line) } }
      let verbs = named.filter { CameraUpdateReader.verbs[$0.0] != nil }
      if verbs.count > 1 {
        report(verbs[1].1, "\(what): \(verbs[0].0) cannot be combined with \(verbs[1].0)")
      } else if let verb = verbs.first,
        let field = named.first(where: { CameraUpdateReader.cameraFields.contains($0.0) })
      {
        report(field.1, CameraUpdateReader.mixed(field.0, with: verb.0, what: what))
      }
    }
    // Fields that belong inside one of the shape's own fields (`{ lat = 1, lng = 2 }` for
    // marker options: inside position), one line for all of them.
    var misplaced: [String: (line: Int, keys: [String])] = [:]
    for field in fields where field.isNamed {
      guard let key = field.key?.stringValue else { continue }
      guard let declared = shapes.flatMap(\.fields).first(where: { $0.name == key }) else {
        if let home = shapes.flatMap(\.fields).first(where: { LintType(luaLS: $0.type).members?.contains(key) == true })
        {
          misplaced[home.name, default: (field.line, [])].keys.append(key)
        } else {
          report(field.line, "\(what): unknown field '\(key)'" + Suggestion.hint(for: key, among: allowed))
        }
        continue
      }
      if case .table(let nested) = field.value.kind {
        checkTable(nested, as: LintType(luaLS: declared.type), what: "\(what).\(key)")
      }
      checkChoice(field.value, of: declared, what: "\(what).\(key)")
    }
    for (home, found) in misplaced.sorted(by: { $0.value.line < $1.value.line }) {
      let names = found.keys.map { "'\($0)'" }.joined(separator: ", ")
      let inside = found.keys.map { "\($0) = ..." }.joined(separator: ", ")
      report(
        found.line,
        "\(what): unknown field\(found.keys.count > 1 ? "s" : "") \(names); \(found.keys.count > 1 ? "they go" : "it goes") inside \(home) = { \(inside) }"
      )
    }
  }

  /// Whether a parameter must be given: not optional (`?`, `nil`), not `any`.
  static func isRequired(_ parameter: LuaAPIParameter) -> Bool {
    !parameter.type.hasSuffix("?") && !parameter.type.contains("nil") && parameter.type != "any"
      && !parameter.type.hasSuffix(")?") && parameter.name != "..."
  }

  /// A literal string where the type lists the strings allowed (`'ios'|'android'|'web'`).
  func checkChoice(_ value: LuaExpr, of field: LuaAPIParameter, what: String) {
    guard let text = value.stringValue, field.type.contains("'") else { return }
    let choices = field.type.split(separator: "|").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'? ")) }
      .filter { !$0.isEmpty && $0 != "nil" }
    guard !choices.contains(text) else { return }
    report(
      value.line,
      "\(what): \"\(text)\" is not one of \(choices.joined(separator: ", "))"
        + Suggestion.hint(for: text, among: choices))
  }

  /// A `return` of a handler: the value must be of the kind the callback table says it
  /// returns (``CallbackSignature/Returns``).
  func checkReturn(_ value: LuaExpr, type: LintType, of handler: LuaHandlerSignature) {
    guard let callback = DelegateCallback(name: handler.name) else { return }
    let name = handler.name
    switch callback.signature.returns {
    case .handled:
      guard let basic = type.basic, !["boolean", "nil"].contains(basic) else { return }
      report(
        value.line, "\(name) returns \(type.described) here; it must return true (handled), false or nil")
    case .content:
      if case .table = value.kind {
        checkContent(value)
        return
      }
      guard let basic = type.basic, !["string", "table", "nil"].contains(basic) else { return }
      report(
        value.line,
        "\(name) returns \(type.described) here; it must return content (a string, a node or a list of nodes, docs/info-window-content.md) or nil"
      )
    case .nothing:
      guard case .true = value.kind else { return }
      let vetoes = DelegateCallback.allCases.filter { $0.signature.returns == .handled }.map(\.name)
      report(
        value.line,
        "\(name) returns a boolean here, which the map ignores: only \(vetoes.joined(separator: ", ")) can return true",
        .warning)
    }
  }

  /// A literal content table returned by a content handler: every problem, at its line.
  private func checkContent(_ expression: LuaExpr) {
    var lines: [String: Int] = [:]
    let value = contentValue(expression, path: "content", lines: &lines)
    for problem in InfoWindowContent.problems(in: value) {
      var path = problem.path
      while lines[path] == nil, let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) {
        path = String(path[..<cut])
      }
      report(lines[path] ?? expression.line, "\(problem.path): \(problem.message)")
    }
  }

  /// The content value of a literal, `.unknown` where the source has an expression.
  private func contentValue(_ expression: LuaExpr, path: String, lines: inout [String: Int]) -> ContentValue {
    lines[path] = expression.line
    switch expression.kind {
    case .string(let text): return .string(text)
    case .number(let number): return .number(number)
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .nil: return .nil
    case .table(let fields):
      if fields.allSatisfy({ $0.key == nil }) {
        return .list(
          fields.enumerated().map { index, field in
            contentValue(field.value, path: "\(path)[\(index + 1)]", lines: &lines)
          })
      }
      var entries: [(key: String, value: ContentValue)] = []
      for field in fields {
        guard let key = field.key?.stringValue else { return .unknown }
        lines["\(path).\(key)"] = field.line
        entries.append((key, contentValue(field.value, path: "\(path).\(key)", lines: &lines)))
      }
      return .table(entries)
    default: return .unknown
    }
  }

  /// How an expression reads in a message: `marker.position`, `map`, else `(...)`.
  func text(of expression: LuaExpr) -> String {
    switch expression.kind {
    case .name(let name): name
    case .field(let object, let name): "\(text(of: object)).\(name)"
    case .method(let object, let name, _): "\(text(of: object)):\(name)(...)"
    case .call(let function, _): "\(text(of: function))(...)"
    default: "(...)"
    }
  }
}
