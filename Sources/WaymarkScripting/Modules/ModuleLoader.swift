import Foundation
import LuaKit

/// The files behind `require` for one Lua state (a plugin's or a script's): where a module is
/// looked for, which files may be read, and every file read, with its bytes, so that a change
/// reloads the plugin (docs/plugins.md, "Helper modules").
///
/// `require("a.b")` tries `a/b.lua` then `a/b/init.lua` in the requiring file's folder, then
/// `package.path`'s templates, which are the module roots' (`root/?.lua;root/?/init.lua`) in
/// order. Inside the project (or, without one, the main file's folder) a file must not lead
/// out of it through a symbolic link; inside a root outside it (a system tree such as
/// Debian's `/usr/share/lua/5.4`, whose files are links into `/usr/share/lua/5.1`) links are
/// followed. Nothing else is read. A module that is a C library is refused, naming its file.
package final class ModuleLoader {
  /// The folder of the file the state runs, as given (relative to the working directory, or
  /// absolute): modules of code that is not a module file are looked for there.
  let folder: String
  /// The module roots in order, absolute.
  let roots: [String]
  /// Folders no file inside may leave through a link: the project's and ``folder``.
  private let areas: [String]
  /// The roots outside every area (system trees), whose links are followed.
  private let openRoots: [String]
  /// Path to the bytes it was loaded from (the plugin file included).
  package var sources: [String: LuaSource] = [:]
  /// Module files looked for that were not there or may not be read, by path.
  private var missing: Set<String> = []
  /// The state's globals table, a module chunk's environment.
  package var environment: LuaRef?

  /// The largest module file read, in bytes (a plugin file's limit).
  static let maxFileSize = 4 << 20

  /// `package.path` at first, when the loader was given one; else the roots'.
  private let givenPath: String?

  /// A loader for a state running a file of `folder`, with module `roots` in order and the
  /// `project` folder, if there is one. `area` is one more folder whose files may be read
  /// (no link inside leading out of it), and `path`, when given, is `package.path` at first
  /// (its templates must lie in the areas or the roots).
  package init(folder: String, roots: [URL] = [], project: URL? = nil, area: String? = nil, path: [String]? = nil) {
    self.folder = folder
    let areas = ([project?.path, area].compactMap { $0 } + [folder]).map(ScriptFiles.absolute)
    self.areas = areas
    self.roots = roots.map { ScriptFiles.absolute($0.path) }
    openRoots = self.roots.filter { root in !areas.contains { Self.contains($0, root) } }
    givenPath = path?.joined(separator: ";")
  }

  /// Every file read, with its bytes, and every module file asked for but not read, with nil.
  var filesRead: [String: LuaSource?] {
    var files = sources.mapValues { Optional($0) }
    for path in missing where files[path] == nil { files[path] = .some(nil) }
    return files
  }

  /// The names `require` answers with a library, as Lua's `package.loaded` holds them.
  static let libraryNames = ["_G", "string", "table", "math", "utf8", "coroutine", "os", "debug", "package", "io"]

  /// Pops the plugin's globals table into ``environment``.
  package func adoptEnvironment(on stack: LuaStack) {
    environment = stack.ref()
  }

  /// The sandbox's module functions, backed by this loader (the state owns them; they hold
  /// the loader, which never holds the state).
  package var hooks: ModuleHooks {
    ModuleHooks(
      search: { [self] context in try search(context) },
      searchC: { [self] context in try searchC(context) },
      isReadable: { [self] context in
        // Relative to the working directory, as loadfile reads the file searchpath answers.
        let file = ScriptFiles.absolute(try context.checkString(1))
        context.stack.push(access(file) == .allowed && Self.isFile(file))
        return 1
      },
      loadFile: { [self] context in try loadFile(context) },
      path: path, cpath: cpath)
  }

  /// `package.path` at first: the one given, else each root's `?.lua` then `?/init.lua`, in
  /// order.
  package var path: String {
    givenPath ?? Self.templates(of: roots).joined(separator: ";")
  }

  /// Each root's `?.lua` then `?/init.lua`, in order.
  package static func templates(of roots: [String]) -> [String] {
    roots.flatMap { [PluginFiles.join($0, "?.lua"), PluginFiles.join($0, "?/init.lua")] }
  }

  /// `package.cpath` at first: `?.so` in ``folder``, in each root, then the system's.
  package var cpath: String {
    (([folder] + roots).map { PluginFiles.join($0, "?.so") } + Self.systemCPath).joined(separator: ";")
  }

  // MARK: Finding modules

  /// Where a module is, or why it is not read.
  package enum Location: Equatable {
    /// The file to load.
    case found(String)
    /// Not found: Lua's lines of what was looked for (`\n\tno file 'x.lua'`...).
    case missing(String)
    /// Refused: the message.
    case refused(String)
  }

  /// Where `require(name)` finds its file, asked from the file `requirer` (its folder is
  /// searched first when it is a file this loader read), with `package.path` = `path`.
  package func locate(_ name: String, requirer: String?, path: String) -> Location {
    guard Self.isModuleName(name) else {
      return .refused(
        "module name '\(name)' is not allowed: require takes a module name (letters, digits, _ and -, "
          + "parts separated by dots or slashes)")
    }
    let relative = Self.relativePath(of: name)
    let own = requirer.flatMap { sources[$0] != nil ? PluginFiles.folder(of: $0) : nil } ?? folder
    let candidates =
      [PluginFiles.join(own, relative + ".lua"), PluginFiles.join(own, relative + "/init.lua")]
      + templates(path).map { $0.replacingOccurrences(of: "?", with: relative) }
    var lines = ""
    var seen: Set<String> = []
    for candidate in candidates where seen.insert(candidate).inserted {
      switch access(candidate) {
      case .outside:
        lines += "\n\tnot searched: '\(candidate)' (outside the project and its module roots)"
      case .escapes(let area):
        missing.insert(candidate)
        return .refused(
          "module '\(name)': \(candidate) is a symbolic link that leads outside \(area); it is not read")
      case .allowed:
        if Self.isFile(candidate) { return .found(candidate) }
        missing.insert(candidate)
        lines += "\n\tno file '\(candidate)'"
      }
    }
    return .missing(lines)
  }

  /// `search(name, requirer, path)`: pushes the module's chunk and file, or nil and why.
  private func search(_ context: LuaCallContext) throws -> Int32 {
    let stack = context.stack
    let name = try context.checkString(1)
    switch locate(name, requirer: try context.optionalString(2), path: try context.checkString(3)) {
    case .refused(let message): return Self.refuse(message, on: stack)
    case .missing(let lines):
      stack.pushNil()
      stack.push(lines)
      return 2
    case .found(let file):
      let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
      guard size <= Self.maxFileSize else {
        return Self.refuse(
          "module '\(name)': \(file) is too large (\(size) bytes; the limit is \(Self.maxFileSize))", on: stack)
      }
      guard let source = PluginFiles.read(file), let environment else {
        return Self.refuse("module '\(name)': \(file) cannot be read", on: stack)
      }
      sources[file] = source
      stack.push(environment)
      do {
        try stack.load(source, chunkName: "@" + file, environmentAt: -1)
      } catch {
        stack.pop()
        return Self.refuse("error loading module '\(name)' from file '\(file)':\n\t\(error.message)", on: stack)
      }
      stack.remove(at: -2)
      stack.push(file)
      return 2
    }
  }

  /// The file `name` (relative to the working directory, as Lua's `loadfile` and `io.open`
  /// read it) when `require` could read it (inside the project or a module root, no link out
  /// of it, at most ``maxFileSize`` bytes), else why not, in Lua's words.
  private func readableFile(_ name: String) -> Result<String, ReadRefusal> {
    let file = ScriptFiles.absolute(name)
    switch access(file) {
    case .outside: return .failure(ReadRefusal(reason: "outside the project and its module roots"))
    case .escapes(let area): return .failure(ReadRefusal(reason: "a symbolic link that leads outside \(area)"))
    case .allowed: break
    }
    guard Self.isFile(file) else { return .failure(ReadRefusal(reason: "No such file or directory")) }
    let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
    guard size <= Self.maxFileSize else {
      return .failure(ReadRefusal(reason: "too large (\(size) bytes; the limit is \(Self.maxFileSize))"))
    }
    return .success(file)
  }

  /// Why ``readableFile(_:)`` does not read a file.
  private struct ReadRefusal: Error {
    /// In Lua's words (`No such file or directory`).
    let reason: String
  }

  /// `load_file(filename)`: pushes the chunk of a Lua source file that `require` could read
  /// (``readableFile(_:)``), compiled with the plugin's environment; or nil and why.
  private func loadFile(_ context: LuaCallContext) throws -> Int32 {
    let stack = context.stack
    let name = try context.checkString(1)
    func failure(_ reason: String) -> Int32 {
      stack.pushNil()
      stack.push("cannot open \(name): \(reason)")
      return 2
    }
    let file: String
    switch readableFile(name) {
    case .success(let found): file = found
    case .failure(let refusal): return failure(refusal.reason)
    }
    guard let source = PluginFiles.read(file), let environment else { return failure("cannot be read") }
    sources[file] = source
    stack.push(environment)
    do {
      try stack.load(source, chunkName: "@" + file, environmentAt: -1)
    } catch {
      stack.pop()
      stack.pushNil()
      stack.push(error.message)
      return 2
    }
    stack.remove(at: -2)
    return 1
  }

  /// `read_file(filename)`: the bytes of a file that `require` could read
  /// (``readableFile(_:)``), or nil and why (`No such file or directory`). Test files read
  /// their fixtures through it (`io.open` for reading, `io.lines`).
  package var readFile: LuaFunctionBody {
    { [self] context in
      let stack = context.stack
      switch readableFile(try context.checkString(1)) {
      case .success(let file):
        guard let data = FileManager.default.contents(atPath: file) else {
          stack.pushNil()
          stack.push("cannot be read")
          return 2
        }
        stack.push(bytes: data)
        return 1
      case .failure(let refusal):
        stack.pushNil()
        stack.push(refusal.reason)
        return 2
      }
    }
  }

  /// `search_c(name, cpath)`: refuses a module whose only file is a C library, naming the
  /// library's file as a fourth value.
  private func searchC(_ context: LuaCallContext) throws -> Int32 {
    let stack = context.stack
    let name = try context.checkString(1)
    let cpath = try context.checkString(2)
    if let library = cLibrary(for: name, cpath: cpath) {
      _ = Self.refuse(
        "module '\(name)' is a C library (\(library)): the sandbox loads Lua source only, never C code", on: stack)
      stack.push(library)  // the sandbox's stand-in names it (lfs)
      return 4
    }
    stack.pushNil()
    stack.push("")
    return 2
  }

  /// The C library `require(name)` would load through `cpath` (its `?.so` templates, for the
  /// name and for its first part, as Lua's all-in-one loader looks), if there is one.
  package func cLibrary(for name: String, cpath: String) -> String? {
    guard Self.isModuleName(name) else { return nil }
    var names = [name.replacingOccurrences(of: ".", with: "/")]
    if let dot = name.firstIndex(of: ".") { names.append(String(name[..<dot])) }
    for relative in names {
      for template in templates(cpath) where template.hasSuffix(".so") {
        let file = template.replacingOccurrences(of: "?", with: relative)
        if FileManager.default.fileExists(atPath: file) { return file }
      }
    }
    return nil
  }

  private static func refuse(_ message: String, on stack: LuaStack) -> Int32 {
    stack.pushNil()
    stack.push(message)
    stack.push(true)
    return 3
  }

  // MARK: Which files may be read

  /// The bytes `path` (a file this loader read, or looked for) holds now, read by the rule
  /// `require` read it by: inside the project or ``folder`` with no link leading out, or in a
  /// module root, links followed there. Nil when it is gone or may not be read. A hot reload
  /// compares it with ``sources`` to tell whether a file changed, so it must answer what
  /// `require` would read, never a stricter rule (a module of the project's `lib/` is outside
  /// the plugin's folder and is read all the same).
  package func currentSource(of path: String) -> LuaSource? {
    guard access(path) == .allowed, Self.isFile(path) else { return nil }
    return PluginFiles.read(path)
  }

  private enum Access: Equatable {
    case allowed
    /// Inside an area by its path, outside it once its links are followed.
    case escapes(String)
    /// Neither in an area nor in an open root.
    case outside
  }

  /// May `file` (absolute, or relative to the working directory) be read?
  private func access(_ file: String) -> Access {
    let absolute = ScriptFiles.absolute(file)
    if openRoots.contains(where: { Self.contains($0, absolute) }) { return .allowed }
    let enclosing = areas.filter { Self.contains($0, absolute) }
    guard !enclosing.isEmpty else { return .outside }
    guard FileManager.default.fileExists(atPath: absolute) else { return .allowed }
    if enclosing.contains(where: { PluginFiles.isInside(absolute, folder: $0) }) { return .allowed }
    return .escapes(enclosing[0])
  }

  /// The templates of a `package.path` or `package.cpath`. A relative one stays relative to
  /// the working directory, as Lua reads it (and as `loadfile` reads a file): ``cpath``'s
  /// first template is ``folder``'s, which is relative to it too.
  private func templates(_ path: String) -> [String] {
    path.split(separator: ";").map { ScriptFiles.resolve(String($0), against: ".") }
  }

  /// Whether `path` (absolute, standardized) lies in `folder` or is it.
  private static func contains(_ folder: String, _ path: String) -> Bool {
    path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
  }

  /// Whether `path` is a file (through links), not a folder.
  private static func isFile(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && !directory.boolValue
  }

  /// A module name: letters, digits, `_` and `-` in parts separated by dots or slashes, at
  /// least one part. Lua turns every dot into a slash and the system reads runs of slashes
  /// as one, so `spec/helpers`, `spec.helpers` and lua_cliargs's `../src.cliargs.core`
  /// (`./src/cliargs/core.lua` through `./?.lua`) name files below a search folder: with
  /// every dot a separator, no part is ever `..` (``relativePath(of:)``).
  static func isModuleName(_ name: String) -> Bool {
    name.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-./".unicodeScalars.contains($0)
    } && !relativePath(of: name).isEmpty
  }

  /// The path of module `name` below a search folder: its parts joined by single slashes, as
  /// the system reads Lua's `name:gsub("%.", "/")` in a template (`a..b` and `a.b` are
  /// `a/b`; a leading `../` or `/` adds nothing).
  static func relativePath(of name: String) -> String {
    name.split(whereSeparator: { $0 == "." || $0 == "/" }).joined(separator: "/")
  }

  /// Where the system keeps Lua 5.4's C modules (Lua's default `package.cpath`).
  static let systemCPath: [String] = {
    let triplets = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
      .filter { $0.contains("-linux-") }.sorted()
    return ["/usr/local/lib/lua/5.4/?.so"] + triplets.map { "/usr/lib/\($0)/lua/5.4/?.so" } + ["/usr/lib/lua/5.4/?.so"]
  }()
}
