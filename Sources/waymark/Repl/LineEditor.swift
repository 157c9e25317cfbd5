import CEditLine
import Foundation

/// Line editing, history and completion for `waymark repl` on a terminal, through libedit's
/// readline interface: the arrow keys, Ctrl-A/E/K/R and the rest, the previous sessions'
/// lines in a history file, and TAB completion by a function of the line so far.
final class LineEditor {
  /// The lines kept in the history file, the most recent last.
  static let historyLength: Int32 = 1000

  private let historyFile: String?

  /// Reads the history of `historyFile` (none when nil, or when ``refusal(of:)`` says it
  /// is no history file: then on standard error) and completes with `complete`.
  init(historyFile: String?, complete: @escaping (String) -> [String]) {
    let refused = historyFile.flatMap(Self.refusal(of:))
    if let refused { Output.error("waymark repl: \(Output.terminalSafe(refused)); this session keeps no history") }
    self.historyFile = refused == nil ? historyFile : nil
    Self.complete = complete
    waymark_editline_setup(attemptCompletion)
    using_history()
    stifle_history(Self.historyLength)
    if let historyFile = self.historyFile { _ = read_history(historyFile) }
  }

  /// The first bytes of every history file libedit writes.
  static let historyHeader = Array("_HiStOrY_V2_".utf8)

  /// Why `path` cannot be the history file, nil when it can: it is a symbolic link (never
  /// followed), not a plain file, or a file that is not empty and does not start with
  /// libedit's header (a `~/.bashrc` that the first line typed would overwrite). Missing is fine.
  static func refusal(of path: String) -> String? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFLNK: return "the history file \(path) is a symbolic link, which the history never follows"
    case S_IFREG: break
    default: return "the history file \(path) is not a plain file"
    }
    guard status.st_size > 0 else { return nil }
    guard let file = FileHandle(forReadingAtPath: path) else { return "the history file \(path) cannot be read" }
    defer { try? file.close() }
    let start = (try? file.read(upToCount: historyHeader.count)).map { [UInt8]($0) } ?? []
    guard start == historyHeader else {
      return "\(path) is not a history file (it does not start with libedit's _HiStOrY_V2_), so it is left as it is"
    }
    return nil
  }

  /// Writes the history to a new file beside ``historyFile`` and renames it over, so the
  /// history file is replaced, never written through (a link put there meanwhile included).
  private func saveHistory() {
    guard let historyFile else { return }
    let folder = (historyFile as NSString).deletingLastPathComponent
    var template = Array("\(folder.isEmpty ? "." : folder)/.waymark_history.XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return }
    close(fd)  // mode 0600: the history stays private
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if write_history(temporary) != 0 || rename(temporary, historyFile) != 0 { unlink(temporary) }
  }

  /// Lets go of the completion, and with it what it holds (the live session), as the pipe's
  /// reader does.
  deinit {
    Self.complete = nil
    Self.matches = []
  }

  /// Where the history is kept: `WAYMARK_HISTORY` when set (empty: nowhere), else
  /// `~/.waymark_history`; nil when neither names a place.
  static func historyFile(in environment: [String: String]) -> String? {
    if let path = environment["WAYMARK_HISTORY"] { return path.isEmpty ? nil : path }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return (home as NSString).appendingPathComponent(".waymark_history")
  }

  /// Shows `prompt` and reads a line with editing, as the bytes typed (Lua takes any); nil
  /// at the end of input (Ctrl-D). A line with more than spaces joins the history, which is
  /// written at once (a session that is killed keeps its lines).
  func readLine(prompt: String) -> [UInt8]? {
    guard let raw = readline(prompt) else { return nil }
    defer { free(raw) }
    let line = Array(UnsafeRawBufferPointer(start: raw, count: strlen(raw)))
    if String(decoding: line, as: UTF8.self).contains(where: { !$0.isWhitespace }) {
      _ = add_history(raw)
      saveHistory()
    }
    return line
  }

  // libedit calls back through C function pointers, which capture nothing: the completion
  // of the one editor of the process, and the matches being handed out, live here.
  nonisolated(unsafe) fileprivate static var complete: ((String) -> [String])?
  nonisolated(unsafe) fileprivate static var matches: [String] = []
  nonisolated(unsafe) fileprivate static var nextMatch = 0
}

/// TAB: the matches of the line up to the cursor, handed to libedit one by one.
private func attemptCompletion(
  _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
  waymark_editline_completion_over()
  var cursor: Int32 = 0
  guard let text, let buffer = waymark_editline_buffer(&cursor) else { return nil }
  let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: Int(cursor)), as: UTF8.self)
  LineEditor.matches = LineEditor.complete?(line) ?? []
  return rl_completion_matches(text, nextCompletion)
}

/// The next match (from the first when `state` is 0), as a string libedit frees.
private func nextCompletion(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
  if state == 0 { LineEditor.nextMatch = 0 }
  guard LineEditor.nextMatch < LineEditor.matches.count else { return nil }
  defer { LineEditor.nextMatch += 1 }
  return strdup(LineEditor.matches[LineEditor.nextMatch])
}
