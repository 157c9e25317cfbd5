import Foundation
import WaymarkCore

/// Standard output and error, unbuffered enough for people and pipes.
enum Output {
  /// Writes a line to standard output; a closed or full output is ignored here (the trace
  /// itself goes through ``write(_:)``, which reports it).
  static func print(_ text: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
  }
  /// `text` (a command's one-line message) with every control character written as the text
  /// trace writes it (`\u001b`, `\n`), so that no argument or message a command echoes (a
  /// file name holding ESC, CR, BEL or a newline) reaches the terminal raw or starts a line.
  /// Backslashes stay as they are: text a command escaped already is not escaped twice.
  static func terminalSafe(_ text: String) -> String { TraceText.escapedControls(text) }

  /// Writes a line to standard error.
  static func error(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8))
  }
  /// Writes `text` to standard output, or fails with a one-line reason (a full disk, a closed pipe).
  static func write(_ text: String) throws(CommandFailure) {
    do {
      try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    } catch {
      throw CommandFailure(
        message: "cannot write to standard output: \(CommandFailure.reason(error))", code: ExitCode.scriptError)
    }
  }
}
