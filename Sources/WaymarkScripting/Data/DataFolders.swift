import Foundation

/// Where `waymark.data` may read: the folders a script or plugin reads files from, and the
/// folder its paths are relative to. A script reads under its project's `data` folders
/// (paths relative to the project; without a project, its own folder), a plugin under its
/// own folder (paths relative to it). A path that leaves them, by `..`, as an absolute path
/// or through a link, is refused; so is a file larger than ``maxFileSize``, before it is read.
/// The folders themselves lie inside the base once their links are resolved: one that leads
/// out of it (a project's `data` link to `../elsewhere`) grants nothing, so no `..` path can
/// reach a folder outside the project through it.
package struct DataFolders: Sendable {
  /// The folder paths are relative to.
  package let base: String
  /// The folders that may be read, links resolved: those of the folders given that lie
  /// inside ``base``.
  package let roots: [String]
  /// The folders given that lead out of ``base`` once resolved, which grant nothing.
  package let outsideRoots: [String]
  /// The largest file read, in bytes (64 MiB).
  package static let maxFileSize = 64 << 20

  /// Folders under which `base`-relative paths may be read; each root is resolved
  /// (`..`, links) once, here, and kept only if it lies inside `base`.
  package init(base: String, roots: [String]) {
    let base = Self.resolved(base)
    let resolved = roots.map { Self.resolved($0) }
    self.base = base
    self.roots = resolved.filter { Self.isInside($0, base) }
    outsideRoots = resolved.filter { !Self.isInside($0, base) }
  }

  /// The real path of the file `path` names, or why it may not be read.
  package func locate(_ path: String) throws(DataFileError) -> String {
    guard !path.isEmpty else { throw DataFileError(path, "an empty path") }
    guard !path.hasPrefix("/") else {
      throw DataFileError(path, "an absolute path; data paths are relative to \(base)")
    }
    guard !path.utf8.contains(0) else { throw DataFileError(path, "a path with a NUL byte") }
    let lexical = Self.normalized(base + "/" + path)
    guard roots.contains(where: { Self.isInside(lexical, $0) }) else {
      if let root = outsideRoots.first(where: { Self.isInside(lexical, $0) }) {
        throw DataFileError(path, "in \(root), which lies outside \(base): a data folder must lie inside it")
      }
      guard !roots.isEmpty else {
        throw DataFileError(
          path, "no data folders to read from (a project names them: data = { \"data\" } in waymark.lua)")
      }
      throw DataFileError(path, "outside the data folders (\(roots.joined(separator: ", ")))")
    }
    let real = Self.resolved(lexical)
    guard roots.contains(where: { Self.isInside(real, $0) }) else {
      throw DataFileError(path, "a link that leads out of the data folders, to \(real)")
    }
    return real
  }

  /// The bytes of the file `path` names, checked with ``locate(_:)``; its size is checked
  /// before it is read.
  package func read(_ path: String) throws(DataFileError) -> [UInt8] {
    let real = try locate(path)
    var info = stat()
    guard stat(real, &info) == 0 else { throw DataFileError(path, "no such file") }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw DataFileError(path, "not a regular file") }
    guard Int(info.st_size) <= Self.maxFileSize else {
      throw DataFileError(
        path, "\(info.st_size) bytes, more than the \(Self.maxFileSize >> 20) MiB a data file may have")
    }
    guard let handle = FileHandle(forReadingAtPath: real) else { throw DataFileError(path, "cannot be opened") }
    defer { try? handle.close() }
    do {
      let data = try handle.read(upToCount: Self.maxFileSize + 1) ?? Data()
      guard data.count <= Self.maxFileSize else {
        throw DataFileError(path, "more than the \(Self.maxFileSize >> 20) MiB a data file may have")
      }
      return [UInt8](data)
    } catch let error as DataFileError {
      throw error
    } catch {
      throw DataFileError(path, "cannot be read (\(error.localizedDescription))")
    }
  }

  private static func isInside(_ path: String, _ root: String) -> Bool {
    path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  /// The absolute `path` with empty components, `.` and `..` removed, links untouched.
  private static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") where part != "." {
      if part == ".." { _ = parts.popLast() } else { parts.append(part) }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// `path` with `.`, `..` and links resolved as far as it exists (a missing tail is kept).
  private static func resolved(_ path: String) -> String {
    let standard = normalized(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
    if let real = realpath(standard, nil) {
      defer { free(real) }
      return String(cString: real)
    }
    let parent = (standard as NSString).deletingLastPathComponent
    guard parent != standard, !parent.isEmpty else { return standard }
    return (resolved(parent) as NSString).appendingPathComponent((standard as NSString).lastPathComponent)
  }
}

/// Why a data file could not be read: the path as given and the reason.
package struct DataFileError: Error, CustomStringConvertible, Sendable {
  /// The path as the script or plugin gave it.
  package let path: String
  /// Why.
  package let reason: String

  init(_ path: String, _ reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `data/x.csv: no such file`.
  package var description: String { "\(path): \(reason)" }
}
