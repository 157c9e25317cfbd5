import Foundation

/// File access of the plugin host: listing plugin folders and reading sources.
package enum PluginFiles {
  /// The source of a file (any bytes, as Lua reads them: ``LuaSource/init(file:)``), nil if
  /// it cannot be read.
  static func read(_ path: String) -> LuaSource? {
    FileManager.default.contents(atPath: path).map { LuaSource(file: [UInt8]($0)) }
  }

  /// The source of a file that must lie inside `folder` (links resolved): nil when it does
  /// not, without reading it, or when it cannot be read.
  package static func read(_ path: String, inside folder: String) -> LuaSource? {
    isInside(path, folder: folder) ? read(path) : nil
  }

  /// Why a file found in `folder` is not read, nil when it may be: a symbolic link that leads
  /// outside the folder (as `require` refuses one). Names the link, never what it leads to.
  package static func escape(of path: String, from folder: String) -> String? {
    guard !isInside(path, folder: folder) else { return nil }
    return "is a symbolic link that leads outside \(folder); it is not read (a Lua file must lie inside its folder, "
      + "as require's modules must)"
  }

  /// The plugin files of `folder`, sorted by name (deterministic): the `*.lua` files
  /// directly in it (not folders named so, not those in `lib/` or any other subfolder),
  /// except the helper modules that one of them `require`s (docs/plugins.md, "Helper
  /// modules"). A link that leads outside the folder is listed (its load is refused), never read.
  static func pluginFiles(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    let files = names.filter { $0.hasSuffix(".lua") && !$0.hasPrefix(".") }.sorted().map { join(folder, $0) }
      .filter { !isDirectory($0) }
    let modules = Set(
      files.flatMap { file in
        requiredModules(in: read(file, inside: folder) ?? LuaSource(bytes: [])).map { modulePath($0, in: folder) }
      })
    return files.filter { !modules.contains($0) }
  }

  /// What to say of `folder`, which holds no plugin file, when folders in it hold some (a
  /// project's `plugins = { "plugins" }` where each plugin has a folder of its own): the
  /// folders to name instead. Nil when none does (an empty folder may fill later).
  static func pluginFoldersHint(in folder: String) -> String? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    let folders = names.filter { !$0.hasPrefix(".") && $0 != "lib" }.sorted().map { join(folder, $0) }
      .filter { isDirectory($0) && !pluginFiles(in: $0).isEmpty }
    guard !folders.isEmpty else { return nil }
    let shown = folders.prefix(5).joined(separator: ", ") + (folders.count > 5 ? ", ..." : "")
    return "holds no plugin file, so no plugin is loaded from it (a plugin folder's plugins are the .lua files"
      + " directly in it); name the folders in it that hold plugins instead: \(shown)"
  }

  /// Every `*.lua` file below `folder` (hidden folders and `.build` left out), sorted.
  package static func luaFiles(under folder: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
    return walker.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".lua") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
      .sorted().map { folder == "." ? $0 : join(folder, $0) }
  }

  /// The names a source passes to `require` as a literal (`require "x"`, `require("a.b")`).
  package static func requiredModules(in source: LuaSource) -> [String] {
    guard let tokens = try? LuaLexer.tokens(source) else { return [] }
    var names: [String] = []
    for (index, token) in tokens.enumerated() where token.kind == .name && token.text == "require" {
      var next = index + 1
      if next < tokens.count, tokens[next].kind == .symbol, tokens[next].text == "(" { next += 1 }
      if next < tokens.count, tokens[next].kind == .string { names.append(tokens[next].text) }
    }
    return names
  }

  /// Where `require(name)` looks in a plugin folder: `a.b` is `folder/a/b.lua`.
  package static func modulePath(_ name: String, in folder: String) -> String {
    join(folder, name.replacingOccurrences(of: ".", with: "/") + ".lua")
  }

  /// Whether `path`, with symbolic links resolved, lies inside `folder` (also resolved).
  static func isInside(_ path: String, folder: String) -> Bool {
    let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
    let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    return file.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  /// Whether `path` is a directory.
  package static func isDirectory(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
  }

  /// `folder/name` without doubling the slash.
  package static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// The folder of a file path (`.` for a bare name).
  package static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The file name without `.lua`.
  package static func baseName(of path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return name.hasSuffix(".lua") ? String(name.dropLast(4)) : name
  }

  /// The 1-based line of the first assignment to `field` in the source (`field =` or
  /// `.field =`), for diagnostics about a plugin table's fields.
  static func line(ofField field: String, in source: LuaSource) -> Int? {
    for (number, line) in source.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var rest = Substring(line)
      while let range = rest.range(of: field) {
        let before = rest[..<range.lowerBound].last
        let after = rest[range.upperBound...].drop { $0 == " " || $0 == "\t" }
        let boundary = before.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
        if boundary, after.hasPrefix("="), !after.hasPrefix("==") { return number + 1 }
        rest = rest[range.upperBound...]
      }
    }
    return nil
  }
}
