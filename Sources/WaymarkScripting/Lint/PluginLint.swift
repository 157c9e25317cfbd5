import Foundation
import WaymarkCore

/// The static checks of `waymark check`: walks the syntax tree of one plugin, helper module
/// or script with its scopes and the types the API declares (``LuaAPI``: handler
/// signatures, members of `Map`, `Marker`, `Overlay`, `Timer`, table shapes), and reports
/// the mistakes people make, each once with its line and, where there is one, a correct
/// suggestion:
///
/// - handlers defined with `:` or with their arguments in the wrong order;
/// - globals (shared by every function of a plugin) and globals read but never set;
/// - what the sandbox leaves out (`io.open`, `os.execute`, ...), saying what to use instead;
/// - return values of the wrong type from handlers, at the `return` line;
/// - every problem of a literal info-window content table;
/// - unknown members of values whose type is known (a handler's `map` and `marker`, what
///   `map:add_marker` returns, `map.camera`, ...), unknown library functions, arguments of
///   the wrong type and unknown fields in literal option tables.
package final class PluginLint {
  /// What a file is, which decides its globals and whether it has handlers.
  package enum FileKind {
    /// Returns a table of handlers.
    case plugin
    /// A helper module a plugin requires: a plugin's globals, no handlers.
    case module
    /// Builds a map with `waymark.map{...}` and drives it.
    case script
  }

  /// A local variable or parameter in scope.
  final class Variable {
    let name: String
    var type: LintType
    init(name: String, type: LintType) {
      self.name = name
      self.type = type
    }
  }

  /// What is known about a function being walked.
  struct FunctionContext {
    /// The handler or lifecycle function it is, if any.
    let handler: LuaHandlerSignature?
    /// The line where it is defined (Lua's `linedefined`).
    let line: Int
  }

  /// A `return` statement with a value: the line of its function, its own line and the type
  /// of its first value.
  struct Return {
    let functionLine: Int
    let line: Int
    let type: LintType
  }

  let file: String
  let kind: FileKind
  let sandbox: SandboxGlobals
  /// Where `require` finds modules for this file (its folder, then the module roots).
  var modules: ModuleLoader
  private(set) var diagnostics: [PluginDiagnostic] = []
  var scopes: [[String: Variable]] = [[:]]
  var functions: [FunctionContext] = []
  /// Globals assigned (first line) and read (lines), in order of first use.
  var globalSets: [(name: String, line: Int)] = []
  var globalReads: [(name: String, line: Int, visible: [String])] = []
  /// The local the file returns as its plugin table, if any.
  var pluginName: String?
  /// Every `return` with a value inside a function, in source order.
  var returns: [Return] = []
  private var reported: Set<String> = []

  init(file: String, kind: FileKind, moduleRoots: [URL] = [], project: URL? = nil) {
    self.file = file
    self.kind = kind
    modules = ModuleLoader(folder: PluginFiles.folder(of: file), roots: moduleRoots, project: project)
    sandbox =
      kind != .script
      ? SandboxGlobals.plugin : SandboxGlobals.isTestFile(file) ? SandboxGlobals.test : SandboxGlobals.script
  }

  /// The line of the `return` that most probably gave a value of Lua type `type` (`number`,
  /// `table`, ...) in the function defined at `functionLine`: the first whose value has that
  /// type in the source, else the first whose type the source does not show; nil when
  /// neither (a runtime message then cites the function's line).
  static func returnLine(of type: String, inFunctionAt functionLine: Int, source: LuaSource, file: String) -> Int? {
    guard let chunk = try? LuaParser.parse(source) else { return nil }
    let lint = PluginLint(file: file, kind: .plugin)
    lint.walk(chunk: chunk)
    let candidates = lint.returns.filter { $0.functionLine == functionLine }
    return (candidates.first { $0.type.basic == type } ?? candidates.first { $0.type.basic == nil })?.line
  }

  /// Checks a file's source; nil when it does not parse (the Lua compiler reports that).
  /// `require`d modules are looked for as the sandbox looks: in the file's folder, then in
  /// `moduleRoots` (links out of `project` refused).
  package static func check(
    _ source: LuaSource, file: String, kind: FileKind, moduleRoots: [URL] = [], project: URL? = nil
  ) -> [PluginDiagnostic]? {
    guard let chunk = try? LuaParser.parse(source) else { return nil }
    let lint = PluginLint(file: file, kind: kind, moduleRoots: moduleRoots, project: project)
    lint.walk(chunk: chunk)
    return lint.diagnostics.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
  }

  /// Walks the main chunk, then reports what only the whole file shows (globals).
  func walk(chunk: [LuaStatement]) {
    if kind == .plugin, case .return(let values)? = chunk.last?.kind, values.count == 1,
      case .name(let name) = values[0].kind
    {
      pluginName = name
    }
    walk(block: chunk)
    reportGlobals()
  }

  /// Notes a problem once per line and message.
  func report(_ line: Int, _ message: String, _ severity: PluginDiagnostic.Severity = .error) {
    guard reported.insert("\(line):\(message)").inserted else { return }
    diagnostics.append(PluginDiagnostic(severity: severity, file: file, line: line, message: message))
  }

  // MARK: - Scopes

  func declare(_ name: String, _ type: LintType) {
    scopes[scopes.count - 1][name] = Variable(name: name, type: type)
  }

  func lookup(_ name: String) -> Variable? {
    for scope in scopes.reversed() {
      if let variable = scope[name] { return variable }
    }
    return nil
  }

  func inScope<T>(_ body: () -> T) -> T {
    scopes.append([:])
    defer { scopes.removeLast() }
    return body()
  }

  /// Every name visible here: locals and the sandbox's globals (for suggestions).
  var visibleNames: [String] {
    scopes.flatMap(\.keys).sorted() + sandbox.globals.keys.sorted()
  }

  // MARK: - Globals

  /// A read of a name no local declares.
  func readGlobal(_ name: String, line: Int) -> LintType {
    if let refusal = PluginSandbox.refusals[name] ?? PluginSandbox.lua51Names[name] {
      report(line, refusal)
      return .unknown
    }
    if sandbox.contains(name) {
      return sandbox.members(of: name) == nil ? .unknown : .library(name)
    }
    globalReads.append((name, line, visibleNames))
    return .unknown
  }

  /// An assignment to a name no local declares.
  func setGlobal(_ name: String, line: Int) {
    guard !sandbox.contains(name), !globalSets.contains(where: { $0.name == name }) else { return }
    globalSets.append((name, line))
  }

  private func reportGlobals() {
    let set = Set(globalSets.map(\.name))
    if kind != .script {
      let owner = kind == .plugin ? "the plugin" : "the plugin that requires this module"
      for (name, line) in globalSets {
        report(
          line,
          "\(name) is a global variable: every function of \(owner) shares it and it lives across calls; declare it local (local \(name))",
          .warning)
      }
    }
    for (name, line, visible) in globalReads where !set.contains(name) {
      let hint =
        name == "self"
        ? "; handlers are called as handler(map, ...), with no self: name the plugin table instead"
        : Suggestion.hint(for: name, among: visible + globalSets.map(\.name))
      report(line, "\(name) is not defined (a global that is read but never set, so it is nil)" + hint)
    }
  }
}
