import Foundation
import WaymarkScripting

/// Writes text files with the system's own words when that fails ("No such file or
/// directory", "Permission denied"), for pictures and replays.
public enum TextFile {
  /// A write that failed: the path and the system's reason.
  public struct WriteError: Error, CustomStringConvertible {
    /// The file that could not be written.
    public let path: String
    /// Why, in the system's words.
    public let reason: String
    /// "cannot write PATH: REASON".
    public var description: String { "cannot write \(path): \(reason)" }
  }

  /// Writes `text` as UTF-8 to `path`, replacing the file.
  public static func write(_ text: String, to path: String) throws(WriteError) {
    guard let file = fopen(path, "wb") else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    let failed = written != bytes.count ? errno : 0
    guard fclose(file) == 0, failed == 0 else {
      throw WriteError(path: path, reason: String(cString: strerror(failed != 0 ? failed : errno)))
    }
  }
}
