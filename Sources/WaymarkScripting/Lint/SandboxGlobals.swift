import LuaKit

/// The globals a plugin or a script sees, read from a real sandbox (never a second list):
/// the names of its environment and, for each library table (`string`, `math`, `os`, ...),
/// the names inside it. What `waymark check` compares global names and library fields with.
package struct SandboxGlobals: Sendable {
  /// Global name → the names in it when it is a table, nil otherwise.
  let globals: [String: Set<String>?]

  /// The globals of a plugin (and of its helper modules).
  static let plugin = read(script: false)
  /// The globals of a script: a plugin's, plus `waymark` and the expectations.
  static let script = read(script: true)
  /// The globals of a test file (`*_test.lua`, `*_spec.lua`): a script's, plus the functions that write its
  /// cases (``caseFunctions``), luassert's (``assertionGlobals``) and busted's `arg`.
  static let test = SandboxGlobals(
    globals: script.globals.merging((caseFunctions + assertionGlobals + ["arg"]).map { ($0, Set<String>?.none) }) {
      old, _ in
      old
    })

  /// What a test file's `io` has beyond a plugin's: it opens files for reading (its
  /// fixtures), where a plugin's `io` refuses.
  static let testFileIO: Set<String> = ["open", "lines", "close"]

  /// Whether `io.name` refuses here: a file function of the sandbox's `io`, which a test file
  /// has for reading (``testFileIO``).
  func refusesIO(_ name: String) -> Bool {
    PluginSandbox.refusals["io.\(name)"] != nil && !(hasLuassert && Self.testFileIO.contains(name))
  }

  /// luassert's globals of a test file beside `assert` (docs/testing.md, "luassert"), whose
  /// fields are luassert's own.
  static let assertionGlobals = ["spy", "stub", "mock", "match"]

  /// The functions `waymark test` gives a `*_test.lua` to write cases with, busted's names
  /// (docs/testing.md, "Cases inside a file").
  static let caseFunctions = ScriptSignatures.cases.map(\.name)

  /// Whether `file` is a test file, whose globals are ``test``'s.
  package static func isTestFile(_ file: String) -> Bool { file.hasSuffix("_test.lua") || file.hasSuffix("_spec.lua") }

  /// Whether `assert`, `spy`, `stub`, `mock` and `match` are luassert's (a test file's).
  var hasLuassert: Bool { globals["spy"] != nil }

  /// Whether `name` is a global of the sandbox.
  func contains(_ name: String) -> Bool { globals[name] != nil }

  /// The names inside the library table `name`, nil if it is not a table.
  func members(of name: String) -> Set<String>? { globals[name] ?? nil }

  /// The script library's functions (`expect`, `waymark.map`, `waymark.invariant`, ...).
  private static let scriptFunctions = ScriptSignatures.all

  private static func read(script: Bool) -> SandboxGlobals {
    var globals: [String: Set<String>?] = [:]
    do {
      let state = try LuaState(libraries: PluginSandbox.libraries)
      defer { state.close() }
      let stack = state.stack
      try PluginSandbox.build(
        on: stack, now: { 0 }, log: { _, _ in }, modules: .none, seed: 0)
      stack.pop()  // the linedefined helper; the environment is on top
      try DataLibrary.install(into: -1, on: stack, folders: DataFolders(base: "/", roots: []))
      if script {
        let names = scriptFunctions.map { $0.name.split(separator: ".")[0] } + ["waymark"]
        for name in names {
          stack.push(true)
          stack.rawSetField(String(name), ofTableAt: -2)
        }
      }
      for key in stack.sortedKeys(ofTableAt: -1) {
        guard case .string(let name) = key else { continue }
        stack.rawGetField(name, ofTableAt: -1)
        defer { stack.pop() }
        guard stack.type(at: -1) == .table else {
          globals[name] = .some(nil)
          continue
        }
        let members = stack.sortedKeys(ofTableAt: -1).compactMap { key -> String? in
          if case .string(let member) = key { return member }
          return nil
        }
        globals[name] = .some(Set(members))
      }
    } catch {
      assertionFailure("the sandbox could not be built: \(error)")
    }
    if script {
      let members = scriptFunctions.compactMap { $0.name.hasPrefix("waymark.") ? String($0.name.dropFirst(8)) : nil }
      globals["waymark"] = .some(Set(members.map { String($0.prefix { $0 != "." }) } + ["version", "data", "json"]))
    }
    return SandboxGlobals(globals: globals)
  }
}
