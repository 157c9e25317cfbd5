import Foundation

/// File access of the plugin host: listing plugin folders and reading sources.
enum PluginFiles {
  /// The text of a file, nil if it cannot be read as UTF-8.
  static func read(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return String(data: data, encoding: .utf8)
  }

  /// The `*.lua` files directly in `folder` (not folders named so), sorted by name
  /// (deterministic).
  static func luaFiles(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".lua") && !$0.hasPrefix(".") }.sorted().map { join(folder, $0) }
      .filter { !isDirectory($0) }
  }

  /// Whether `path`, with symbolic links resolved, lies inside `folder` (also resolved).
  static func isInside(_ path: String, folder: String) -> Bool {
    let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
    let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    return file.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  /// Whether `path` is a directory.
  static func isDirectory(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
  }

  /// `folder/name` without doubling the slash.
  static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// The folder of a file path (`.` for a bare name).
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The file name without `.lua`.
  static func baseName(of path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return name.hasSuffix(".lua") ? String(name.dropLast(4)) : name
  }

  /// The 1-based line of the first assignment to `field` in the source (`field =` or
  /// `.field =`), for diagnostics about a plugin table's fields.
  static func line(ofField field: String, in source: String) -> Int? {
    for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
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
