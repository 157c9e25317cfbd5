import Foundation

/// A golden trace on disk: the JSON Lines a run must reproduce byte for byte. The one
/// mechanism behind `waymark test --golden` and WaymarkTesting's `GoldenTrace`: compare a
/// run's records with the file (differences as ``TraceDiff`` lines), or write the file.
package enum GoldenTraceFile {
  /// What checking a run against a golden file found.
  package enum Outcome: Equatable {
    /// The run reproduced the file exactly.
    case matches
    /// The file was (re)written with the run's trace.
    case written
    /// There is no such file.
    case missing
    /// The file could not be written, or is not a JSON trace: why.
    case unusable(String)
    /// The run differs: ``TraceDiff``'s summary line, the first differing records, the count
    /// of the others.
    case differs([String])
  }

  /// Checks `records` against the golden file at `path`, whose records are each of one of
  /// `events`, or writes it when `update` (``write(_:to:within:)``: never through a symbolic
  /// link below `root`, the golden folder; the file's own folder when nil).
  package static func check(
    _ records: [TraceRecord], at path: String, update: Bool, within root: String? = nil,
    events: [TraceEvent] = TraceEvent.coreEvents
  ) -> Outcome {
    if update {
      let text = records.map { TraceJSON.line($0) + "\n" }.joined()
      if let problem = write(Array(text.utf8), to: path, within: root ?? (path as NSString).deletingLastPathComponent) {
        return .unusable("cannot write the golden trace: \(problem)")
      }
      return .written
    }
    guard let data = FileManager.default.contents(atPath: path) else { return .missing }
    let expected: [TraceRecord]
    do {
      expected = try TraceJSONReader.records(from: String(decoding: data, as: UTF8.self), events: events)
    } catch {
      return .unusable("not a JSON trace: \(error)")
    }
    return TraceDiff.differences(expected: expected, actual: records).map(Outcome.differs) ?? .matches
  }

  /// Writes `bytes` to `path`, a file inside the folder `root`, without ever writing through a
  /// symbolic link: the folders between `root` and the file must be folders (made when
  /// missing), not links; a link where the file goes is refused, not followed. The bytes go
  /// to a new file in the same folder, which is then renamed over `path`, so a run that stops
  /// midway leaves the old file whole. Nil when written, else why not.
  package static func write(_ bytes: [UInt8], to path: String, within root: String) -> String? {
    var rootPath = root
    while rootPath.count > 1, rootPath.hasSuffix("/") { rootPath.removeLast() }
    if rootPath.isEmpty { rootPath = "." }
    var below = (path as NSString).lastPathComponent
    if path.hasPrefix(rootPath + "/") {
      below = String(path.dropFirst(rootPath.count + 1))
    } else {
      let own = (path as NSString).deletingLastPathComponent
      rootPath = own.isEmpty ? "." : own
    }
    do {
      try FileManager.default.createDirectory(atPath: rootPath, withIntermediateDirectories: true)
    } catch {
      return "\(rootPath): \(error.localizedDescription)"
    }
    var folder = rootPath
    for name in below.split(separator: "/").dropLast() {
      folder += "/" + name
      switch kind(of: folder) {
      case nil:
        guard mkdir(folder, 0o777) == 0 || errno == EEXIST, kind(of: folder) == S_IFDIR else {
          return "\(folder): \(String(cString: strerror(errno)))"
        }
      case S_IFDIR?: continue
      case S_IFLNK?: return "\(folder) is a symbolic link, and golden traces are never written through one (remove it)"
      default: return "\(folder) is not a folder"
      }
    }
    switch kind(of: path) {
    case S_IFLNK?: return "\(path) is a symbolic link, and golden traces are never written through one (remove it)"
    case nil, S_IFREG?: break
    default: return "\(path) is not a file"
    }
    let name = (path as NSString).lastPathComponent
    var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return "\(folder): \(String(cString: strerror(errno)))" }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        let reason = String(cString: strerror(errno))
        close(fd)
        unlink(temporary)
        return "\(path): \(reason)"
      }
      written += count
    }
    fchmod(fd, 0o644)
    close(fd)
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      return "\(path): \(reason)"
    }
    return nil
  }

  /// The kind of what is at `path` (`S_IFDIR`, `S_IFLNK`, ...), a link itself and not what
  /// it leads to; nil when nothing is.
  private static func kind(of path: String) -> mode_t? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT
  }
}
