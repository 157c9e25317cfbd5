import Foundation

/// Writes the files of a new project all or not at all: everything in the way is found before
/// anything is written (a file, a symbolic link even to nothing, a file where a folder goes, a
/// folder that cannot be written), and a write that fails midway takes back what it wrote.
/// Nothing is written through a symbolic link: each file is created anew, never opened
/// through one.
struct ProjectWriter {
  /// The project's folder (made when missing).
  let root: URL

  /// Every path (relative to the root) in the way of writing `paths`, with why when it is not
  /// simply a file there: `tests/places_test.lua`, `scripts (a symbolic link)`.
  func obstacles(_ paths: [String]) -> [String] {
    var found: [String] = []
    var seen = Set<String>()
    for path in paths {
      let parts = path.split(separator: "/").map(String.init)
      for depth in 1...parts.count {
        let prefix = parts.prefix(depth).joined(separator: "/")
        guard seen.insert(prefix).inserted else { continue }
        let isFolder = depth < parts.count
        switch Self.kind(of: root.appendingPathComponent(prefix).path) {
        case nil: continue
        case S_IFDIR?:
          if !isFolder { found.append("\(prefix) (a folder)") }
        case S_IFLNK?: found.append("\(prefix) (a symbolic link)")
        default: found.append(isFolder ? "\(prefix) (a file where a folder goes)" : prefix)
        }
      }
    }
    return found
  }

  /// The first folder that would be written in but cannot be (permissions), nil when all can.
  func unwritableFolder(_ paths: [String]) -> String? {
    for path in paths {
      var folder = root.appendingPathComponent(path).deletingLastPathComponent()
      while Self.kind(of: folder.path) == nil, folder.path != "/" { folder.deleteLastPathComponent() }
      if access(folder.path, W_OK) != 0 { return folder.path }
    }
    return nil
  }

  /// Writes each file, making the folders it needs; on the first failure removes every file
  /// and folder it made, then throws where and the system's reason.
  func write(_ files: [(path: String, text: String)]) throws(Failure) {
    var made: [String] = []  // files and folders, in the order made
    func makeFolder(_ folder: URL) throws(Failure) {
      guard Self.kind(of: folder.path) == nil else { return }
      guard mkdir(folder.path, 0o777) == 0 else { throw Failure(path: folder.path, code: errno) }
      made.append(folder.path)
    }
    do throws(Failure) {
      var missing: [URL] = []  // the root and its missing parents, outermost first
      var ancestor = root.standardizedFileURL
      while Self.kind(of: ancestor.path) == nil, ancestor.path != "/" {
        missing.insert(ancestor, at: 0)
        ancestor.deleteLastPathComponent()
      }
      for folder in missing { try makeFolder(folder) }
      for file in files {
        var folder = root
        for name in file.path.split(separator: "/").dropLast() {
          folder.appendPathComponent(String(name))
          try makeFolder(folder)
        }
        let path = root.appendingPathComponent(file.path).path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(path: path, code: errno) }
        made.append(path)
        let bytes = Array(file.text.utf8)
        var written = 0
        while written < bytes.count {
          let count = bytes[written...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
          if count < 0, errno == EINTR { continue }
          guard count > 0 else {
            let code = errno
            close(fd)
            throw Failure(path: path, code: code)
          }
          written += count
        }
        close(fd)
      }
    } catch {
      for path in made.reversed() { _ = remove(path) }
      throw error
    }
  }

  /// A write that failed: where, and the system's error number.
  struct Failure: Error {
    /// The file or folder that could not be made.
    let path: String
    /// The system's error number.
    let code: Int32
    /// `cannot write PATH: REASON`.
    var message: String { "cannot write \(path): \(String(cString: strerror(code)))" }
  }

  /// What is at `path` (`S_IFDIR`, `S_IFLNK`, ...), a link itself and not what it leads to.
  static func kind(of path: String) -> mode_t? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT
  }
}
