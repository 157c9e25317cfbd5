import Foundation
import LuaKit

/// busted's `.busted` file, as busted reads it from the folder it runs in: Lua returning a
/// table of tasks, each a table of options. The task `--run TASK` names (else `default`, when
/// there is one) gives its values, `_all` those it leaves out, and the command line wins
/// over both. `waymark test` reads the options it shares with busted (docs/testing.md,
/// "A .busted file"); the others (busted's `verbose`, `coverage`, ...) are left alone.
struct BustedConfiguration: Equatable {
  /// `ROOT`: the folders and files to run when no PATH is given.
  var roots: [String] = []
  /// `pattern`: Lua patterns choosing the test files in folders.
  var patterns: [String] = []
  /// `tags`.
  var tags: [String] = []
  /// `exclude-tags`.
  var excludedTags: [String] = []
  /// `output`: the name of an output (``TestOutput``).
  var output: String?
  /// `lpath`: `package.path` templates searched first by test files, relative to the folder
  /// busted runs in; empty: busted's default, ``defaultLPath``.
  var lpath: [String] = []
  /// `helper`: a Lua file run before each test file, in its globals; relative to the folder
  /// busted runs in.
  var helper: String?

  /// busted's default `lpath`.
  static let defaultLPath = ["./src/?.lua", "./src/?/?.lua", "./src/?/init.lua"]

  /// The file's name.
  static let fileName = ".busted"

  /// Reads `folder/.busted` for `task` (nil: `default`). No file: nil, unless a task was
  /// named. A file that does not load, does not return a table, has no such task, or holds
  /// a value of the wrong type is a usage error naming the file, the task and the key.
  static func load(in folder: String = ".", task: String?) throws(UsageError) -> BustedConfiguration? {
    let path = folder == "." ? fileName : folder + "/" + fileName
    guard let bytes = FileManager.default.contents(atPath: path) else {
      guard let task else { return nil }
      throw UsageError(
        message: "--run \(task): no \(fileName) file in \(folder == "." ? "the current folder" : folder)")
    }
    do {
      let state = try LuaState(memoryLimit: 16 << 20, libraries: [.base, .string, .table, .math])
      defer { state.close() }
      state.timeBudget = .seconds(5)
      let stack = state.stack
      try stack.load(bytes: Array(bytes), chunkName: "@" + path)
      try stack.call(arguments: 0, results: 1)
      guard stack.type(at: -1) == .table else {
        throw UsageError(message: "\(path) does not return a table (busted's tasks: return { default = { ... } })")
      }
      var configuration = BustedConfiguration()
      let chosen = task ?? "default"
      let taskType = stack.rawGetField(chosen, ofTableAt: -1)
      if taskType == .table {
        try configuration.read(stack, path: path, task: chosen)
      } else if task != nil {
        throw UsageError(message: "\(path): task `\(chosen)` not found, or not a table (--run \(chosen))")
      }
      stack.pop()
      if stack.rawGetField("_all", ofTableAt: -1) == .table {
        var all = BustedConfiguration()
        try all.read(stack, path: path, task: "_all")
        configuration.fill(from: all)
      }
      return configuration
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError(message: "\(path): \((error as? LuaError)?.message ?? "\(error)")")
    }
  }

  /// Reads the task's table on top of the stack.
  private mutating func read(_ stack: LuaStack, path: String, task: String) throws(UsageError) {
    roots = try strings("ROOT", stack, path, task)
    patterns = try strings("pattern", stack, path, task)
    tags = try strings("tags", stack, path, task, commas: true)
    excludedTags = try strings("exclude-tags", stack, path, task, commas: true)
    output = try strings("output", stack, path, task, list: false).first
    lpath = try strings("lpath", stack, path, task).flatMap { $0.split(separator: ";").map(String.init) }
    helper = try strings("helper", stack, path, task, list: false).first
  }

  /// Every value `other` has that this one lacks.
  private mutating func fill(from other: BustedConfiguration) {
    if roots.isEmpty { roots = other.roots }
    if patterns.isEmpty { patterns = other.patterns }
    if tags.isEmpty { tags = other.tags }
    if excludedTags.isEmpty { excludedTags = other.excludedTags }
    if output == nil { output = other.output }
    if lpath.isEmpty { lpath = other.lpath }
    if helper == nil { helper = other.helper }
  }

  /// The value of `key` in the table on top: a string (split at commas when `commas`), or a
  /// list of strings when `list` allows one; absent, none.
  private func strings(
    _ key: String, _ stack: LuaStack, _ path: String, _ task: String, commas: Bool = false, list: Bool = true
  ) throws(UsageError) -> [String] {
    defer { stack.pop() }
    let expected = list ? "a string or a list of strings" : "a string"
    switch stack.rawGetField(key, ofTableAt: -1) {
    case .nil: return []
    case .string:
      let text = stack.string(at: -1) ?? ""
      return commas ? text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : [text]
    case .table where list:
      var found: [String] = []
      var index = 1
      while stack.rawGetIndex(index, ofTableAt: -1) != .nil {
        defer { stack.pop() }
        guard stack.type(at: -1) == .string, let text = stack.string(at: -1) else {
          throw UsageError(
            message: "\(path): \(task).\(key)[\(index)]: expected a string, got \(stack.typeName(at: -1))")
        }
        found.append(text)
        index += 1
      }
      stack.pop()
      return found
    default:
      throw UsageError(message: "\(path): \(task).\(key): expected \(expected), got \(stack.typeName(at: -1))")
    }
  }
}
