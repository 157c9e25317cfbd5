import CEditLine
import Foundation

/// Line editing, history and completion for `waymark repl` on a terminal, through libedit's
/// readline interface: the arrow keys, Ctrl-A/E/K/R and the rest, the previous sessions'
/// lines in a history file, and TAB completion by a function of the line so far.
final class LineEditor {
  /// The lines kept in the history file, the most recent last.
  static let historyLength: Int32 = 1000

  private let historyFile: String?

  /// Reads the history of `historyFile` (none when nil) and completes with `complete`.
  init(historyFile: String?, complete: @escaping (String) -> [String]) {
    self.historyFile = historyFile
    Self.complete = complete
    waymark_editline_setup(attemptCompletion)
    using_history()
    stifle_history(Self.historyLength)
    if let historyFile { _ = read_history(historyFile) }
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
      if let historyFile { _ = write_history(historyFile) }
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
