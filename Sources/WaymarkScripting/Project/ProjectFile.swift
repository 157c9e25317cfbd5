import Foundation
import LuaKit
import WaymarkCore

/// Reads a `waymark.lua`: runs it in a sandbox of plain Lua (no map, no files, no `os`, no
/// `require`, bounded in instructions and memory) and checks the table it returns key by key.
struct ProjectFile {
  /// The file, absolute.
  let file: URL
  /// Its lines, to say where a key is written.
  private var lines: [Substring] = []

  /// The largest project file read, in bytes.
  static let maxSize = 1 << 20
  /// The most Lua instructions the file may run.
  static let instructionBudget = 10_000_000
  /// The most memory the file's Lua state may use, in bytes.
  static let memoryLimit = 32 << 20

  init(file: URL) { self.file = file }

  /// The project the file describes.
  func read() throws(ProjectError) -> Project {
    var reader = self
    let bytes = try reader.source()
    reader.lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    return try reader.evaluate(bytes)
  }

  /// The file's bytes, refused past ``maxSize``.
  private func source() throws(ProjectError) -> [UInt8] {
    let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
    if let size = attributes?[.size] as? Int, size > Self.maxSize {
      throw ProjectError("\(file.path): more than \(Self.maxSize) bytes; a project file holds settings, not data")
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      throw ProjectError("\(file.path): cannot read the project file")
    }
    return [UInt8](data)
  }

  /// Runs the chunk and reads the table it returns.
  private func evaluate(_ bytes: [UInt8]) throws(ProjectError) -> Project {
    let state: LuaState
    do {
      state = try LuaState(memoryLimit: Self.memoryLimit, libraries: [.base, .string, .table, .math, .utf8])
    } catch {
      throw ProjectError("\(file.path): \(error.message)")
    }
    defer { state.close() }
    state.instructionBudget = (Self.instructionBudget, .exact)
    state.timeBudget = .seconds(10)
    let stack = state.stack
    do {
      try stack.run(Self.prelude, chunkName: "=(project)", results: 1)
      try stack.load(bytes: bytes, chunkName: "@" + file.path, environmentAt: -1)
      try stack.call(arguments: 0, results: 1)
    } catch {
      // Lua's memory error names no file: say which, as the instruction limit does.
      switch error.kind {
      case .timeout: throw ProjectError("\(file.path): ran past \(Self.instructionBudget) instructions")
      case .memory:
        throw ProjectError(
          "\(file.path): not enough memory (a project file runs in at most \(Self.memoryLimit >> 20) MiB)")
      default: throw ProjectError(error.message)
      }
    }
    guard stack.type(at: -1) == .table else {
      throw ProjectError(
        "\(file.path): a project file returns a table (return { modules = { \"lib\" } }), not \(stack.typeName(at: -1))"
      )
    }
    return try project(fromTableAt: stack.absoluteIndex(-1), on: stack)
  }

  /// The plain globals a project file sees: the base library's pure functions, `string`,
  /// `table`, `math` (without `random`) and `utf8`.
  static let prelude = """
    local env = {}
    for _, k in ipairs({ "assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget", "rawlen",
      "rawset", "select", "setmetatable", "getmetatable", "tonumber", "tostring", "type", "xpcall", "_VERSION" }) do
      env[k] = _G[k]
    end
    for _, name in ipairs({ "string", "table", "math", "utf8" }) do
      local copy = {}
      for k, v in pairs(_G[name]) do copy[k] = v end
      env[name] = copy
    end
    env.math.random, env.math.randomseed = nil, nil
    env._G = env
    return env
    """

  // MARK: Keys

  private func project(fromTableAt table: Int32, on stack: LuaStack) throws(ProjectError) -> Project {
    var project = Project(folder: file.deletingLastPathComponent())
    for key in stack.sortedKeys(ofTableAt: table) {
      guard case .string(let name) = key else {
        throw failure(
          "", "a project file's keys are names (\(Project.keys.joined(separator: ", "))), not \(Self.name(of: key))")
      }
      stack.rawGet(key, ofTableAt: table)
      defer { stack.pop() }
      let value = stack.absoluteIndex(-1)
      switch name {
      case "modules": project.moduleRoots = try paths(at: value, on: stack, key: name, kind: .folder, in: project)
      case "data": project.dataRoots = try paths(at: value, on: stack, key: name, kind: .dataFolder, in: project)
      case "plugins": project.pluginFolders = try paths(at: value, on: stack, key: name, kind: .plugins, in: project)
      case "settings": project.settings = try settings(at: value, on: stack)
      case "clock": project.clock = try clock(at: value, on: stack)
      case "test": project.test = try test(at: value, on: stack, in: project)
      default: throw unknownKey(name, in: "", among: Project.keys, top: name)
      }
    }
    return project
  }

  /// What a path must name.
  private enum PathKind {
    /// A folder (a module root may be a system tree outside the project).
    case folder
    /// A folder that is inside the project once its links are resolved (docs/projects.md:
    /// `waymark.data` reads only inside the project).
    case dataFolder
    /// A plugin folder or a `.lua` plugin file.
    case plugins
    /// Any path, there or not.
    case anything
  }

  /// A path or a list of paths, each relative to the project or absolute, resolved.
  private func paths(at index: Int32, on stack: LuaStack, key: String, kind: PathKind, in project: Project)
    throws(ProjectError) -> [URL]
  {
    if stack.type(at: index) == .string { return [try path(at: index, on: stack, key: key, kind: kind, in: project)] }
    guard stack.type(at: index) == .table else {
      throw failure(key, "expected a path or a list of paths ({ \"lib\" }), got \(describe(at: index, on: stack))")
    }
    let count = stack.rawLength(at: index)
    for extra in stack.sortedKeys(ofTableAt: index) {
      if case .integer(let n) = extra, (1...max(count, 1)).contains(n) { continue }
      throw failure(key, "expected a list of paths, but it has the key \(Self.name(of: extra))")
    }
    var urls: [URL] = []
    for n in 0..<count {
      stack.rawGetIndex(n + 1, ofTableAt: index)
      defer { stack.pop() }
      urls.append(try path(at: stack.top, on: stack, key: "\(key)[\(n + 1)]", kind: kind, in: project))
    }
    return urls
  }

  private func path(at index: Int32, on stack: LuaStack, key: String, kind: PathKind, in project: Project)
    throws(ProjectError) -> URL
  {
    guard stack.type(at: index) == .string, let text = stack.string(at: index), !text.isEmpty else {
      throw failure(key, "expected a path (a non-empty string), got \(describe(at: index, on: stack))")
    }
    let url =
      (text.hasPrefix("/") ? URL(fileURLWithPath: text) : project.folder.appendingPathComponent(text))
      .standardizedFileURL
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
    switch kind {
    case .anything: break
    case .folder, .dataFolder:
      guard exists, isDirectory.boolValue else {
        throw failure(key, "no such folder '\(text)' (looked for \(url.path))")
      }
      if kind == .dataFolder { try requireInside(url, project: project, key: key, text: text) }
    case .plugins:
      guard exists, isDirectory.boolValue || text.hasSuffix(".lua") else {
        throw failure(key, "no such folder or .lua file '\(text)' (looked for \(url.path))")
      }
    }
    return url
  }

  /// Throws unless `url`, its links resolved, is the project's folder or inside it (links
  /// resolved too): a data folder that is a link out of the project, or a path outside it,
  /// would let `waymark.data` read there.
  private func requireInside(_ url: URL, project: Project, key: String, text: String) throws(ProjectError) {
    let real = url.resolvingSymlinksInPath().standardizedFileURL.path
    let folder = project.folder.resolvingSymlinksInPath().standardizedFileURL.path
    guard real != folder, !real.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else { return }
    let leads = real == url.path ? "" : " (it leads to \(real))"
    throw failure(key, "'\(text)' is outside the project\(leads); a data folder must lie inside \(project.folder.path)")
  }

  private func settings(at index: Int32, on stack: LuaStack) throws(ProjectError) -> [String: PlainData] {
    guard stack.type(at: index) == .table else {
      throw failure("settings", "expected a table of settings by plugin name, got \(describe(at: index, on: stack))")
    }
    let data: PlainData?
    do {
      data = try PlainData.read(at: index, on: stack)
    } catch {
      throw failure("settings" + error.path, error.reason)
    }
    guard case .table(let entries) = data else { return [:] }
    var settings: [String: PlainData] = [:]
    for (key, value) in entries {
      guard case .string(let name) = key else {
        throw failure("settings", "its keys are plugin names, not \(key.pathComponent)")
      }
      settings[name] = value
    }
    return settings
  }

  private func clock(at index: Int32, on stack: LuaStack) throws(ProjectError) -> LocalClock {
    let fields = try table(at: index, on: stack, key: "clock", keys: ["start", "zone"])
    do {
      return try LocalClock(start: fields["start"] ?? LocalClock.defaultStart, zone: fields["zone"] ?? "UTC")
    } catch {
      throw failure("clock.\(error.field)", error.message, top: "clock")
    }
  }

  private func test(at index: Int32, on stack: LuaStack, in project: Project) throws(ProjectError)
    -> Project.TestDefaults
  {
    guard stack.type(at: index) == .table else {
      throw failure("test", "expected a table ({ paths = { \"tests\" } }), got \(describe(at: index, on: stack))")
    }
    var defaults = Project.TestDefaults()
    for key in stack.sortedKeys(ofTableAt: index) {
      guard case .string(let name) = key, Project.TestDefaults.keys.contains(name) else {
        throw unknownKey(Self.name(of: key), in: "test.", among: Project.TestDefaults.keys, top: "test")
      }
      stack.rawGet(key, ofTableAt: index)
      defer { stack.pop() }
      if name == "paths" {
        defaults.paths = try paths(at: stack.top, on: stack, key: "test.paths", kind: .plugins, in: project)
      } else {
        defaults.golden = try path(at: stack.top, on: stack, key: "test.golden", kind: .anything, in: project)
      }
    }
    return defaults
  }

  /// A table of string fields among `keys`.
  private func table(at index: Int32, on stack: LuaStack, key: String, keys: [String]) throws(ProjectError)
    -> [String: String]
  {
    guard stack.type(at: index) == .table else {
      throw failure(key, "expected a table, got \(describe(at: index, on: stack))")
    }
    var fields: [String: String] = [:]
    for field in stack.sortedKeys(ofTableAt: index) {
      guard case .string(let name) = field, keys.contains(name) else {
        throw unknownKey(Self.name(of: field), in: key + ".", among: keys, top: key)
      }
      stack.rawGet(field, ofTableAt: index)
      defer { stack.pop() }
      guard stack.type(at: -1) == .string, let text = stack.string(at: -1) else {
        throw failure("\(key).\(name)", "expected a string, got \(describe(at: -1, on: stack))", top: key)
      }
      fields[name] = text
    }
    return fields
  }

  // MARK: Messages

  /// A key as a message shows it: a name as it is, a number as Lua writes it.
  private static func name(of key: LuaKey) -> String {
    switch key {
    case .string(let text): return text
    case .integer(let n): return "[\(n)]"
    case .number(let x): return "[\(formatNumber(x))]"
    case .boolean(let flag): return "[\(flag)]"
    }
  }

  /// `type value` for a message: `number 3`, `string "x"`, `boolean true`, `table`.
  private func describe(at index: Int32, on stack: LuaStack) -> String {
    switch stack.type(at: index) {
    case .boolean: return "boolean \(stack.boolean(at: index))"
    case .number:
      if stack.isInteger(at: index), let n = stack.integer(at: index) { return "number \(n)" }
      return "number \(stack.number(at: index) ?? 0)"
    case .string: return "string \"\(stack.string(at: index, atMost: 80)?.text ?? "")\""
    default: return stack.typeName(at: index)
    }
  }

  private func unknownKey(_ key: String, in prefix: String, among keys: [String], top: String) -> ProjectError {
    let hint = Suggestion.closest(to: key, among: keys).map { "; did you mean \(prefix)\($0)?" } ?? ""
    return failure(
      "",
      "unknown key '\(prefix)\(key)'\(hint) (\(prefix.isEmpty ? "a project file" : String(prefix.dropLast())) has \(keys.joined(separator: ", ")))",
      top: top)
  }

  /// `FILE:LINE: KEY: message`, the line where the top-level key is written when it can be found.
  private func failure(_ key: String, _ message: String, top: String? = nil) -> ProjectError {
    let topKey = top ?? String(key.prefix { $0 != "." && $0 != "[" })
    let line = topKey.isEmpty ? nil : line(of: topKey)
    return ProjectError(
      "\(file.path)\(line.map { ":\($0)" } ?? ""): \(key.isEmpty ? "" : key + ": ")\(message)")
  }

  /// The first line that assigns `key =` outside a comment, 1-based.
  private func line(of key: String) -> Int? {
    for (number, line) in lines.enumerated() {
      let code = line.range(of: "--").map { line[..<$0.lowerBound] } ?? line
      var search = code.startIndex
      while let found = code.range(of: key, range: search..<code.endIndex) {
        search = found.upperBound
        if found.lowerBound > code.startIndex {
          let before = code[code.index(before: found.lowerBound)]
          if before == "_" || before == "." || before.isLetter || before.isNumber { continue }
        }
        let rest = code[found.upperBound...].drop { $0 == " " || $0 == "\t" }
        if rest.hasPrefix("="), !rest.hasPrefix("==") { return number + 1 }
      }
    }
    return nil
  }
}
