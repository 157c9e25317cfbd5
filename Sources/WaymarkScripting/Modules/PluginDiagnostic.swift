/// A problem found while loading or checking a plugin, as a value (like swift-format's
/// `Finding`): the CLI prints it, tests inspect it, nothing is thrown.
///
/// Prints like a compiler: `plugins/melbourne.lua:12: error: priority must be a number, got string`.
public struct PluginDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How serious it is.
  public enum Severity: String, Sendable, Hashable {
    /// The plugin (or its new version) was not loaded.
    case error
    /// The plugin loaded, but something looks wrong (an unknown handler name).
    case warning
  }

  /// Error or warning.
  public var severity: Severity
  /// The file, as the host was given it (`plugins/x.lua`).
  public var file: String
  /// The 1-based line, when known.
  public var line: Int?
  /// What is wrong, without the file and line.
  public var message: String

  /// Creates a diagnostic.
  public init(severity: Severity, file: String, line: Int?, message: String) {
    self.severity = severity
    self.file = file
    self.line = line
    self.message = message
  }

  /// `file:line: severity: message` (no line part when unknown).
  public var description: String {
    "\(file)\(line.map { ":\($0)" } ?? ""): \(severity.rawValue): \(message)"
  }
}

extension PluginDiagnostic {
  /// A diagnostic from a Lua message `chunk:line: text`, split where it can be.
  package static func error(file: String, luaMessage: String) -> PluginDiagnostic {
    let (line, text) = LuaLocation.split(luaMessage)
    return PluginDiagnostic(severity: .error, file: file, line: line, message: text)
  }
}

/// Finding `file:line:` in Lua messages and tracebacks.
package enum LuaLocation {
  /// Splits `chunk:12: text` into (12, text); (nil, message) when there is no location.
  package static func split(_ message: String) -> (line: Int?, text: String) {
    guard let range = prefixRange(of: message) else { return (nil, message) }
    let prefix = message[range].dropLast(2)  // ": "
    let digits = prefix.reversed().prefix { $0.isNumber }
    let line = Int(String(digits.reversed()))
    return (line, String(message[range.upperBound...]))
  }

  /// The file and line a message starts with (`plugins/x.lua:12: text`), if any.
  package static func location(of message: String) -> (file: String, line: Int)? {
    guard let range = prefixRange(of: message) else { return nil }
    var prefix = message[range]
    while prefix.last == " " || prefix.last == ":" { prefix.removeLast() }
    guard let colon = prefix.lastIndex(of: ":"), let line = Int(prefix[prefix.index(after: colon)...]) else {
      return nil
    }
    return (String(prefix[..<colon]), line)
  }

  /// The Lua frames of a traceback, innermost first, as `file:line` (C and sandbox frames
  /// left out).
  static func luaFrames(in traceback: String?) -> [String] {
    guard let traceback else { return [] }
    return traceback.split(separator: "\n").compactMap { raw in
      let line = String(raw.trimmingPrefix("\t"))
      guard !line.hasPrefix("[C]"), !line.hasPrefix("stack traceback"), !line.hasPrefix("(") else { return nil }
      return prefixRange(of: line).map { String(line[$0].dropLast(2)) }
    }
  }

  /// Whether a chunk name in a Lua message names `file` (Lua shortens long ones to
  /// `.../end/of/the/path.lua`).
  static func names(_ chunk: String, _ file: String) -> Bool {
    chunk == file || (chunk.hasPrefix("...") && file.hasSuffix(chunk.dropFirst(3)))
  }

  /// For an error that happened in another file than `file` (a module the plugin requires):
  /// `; traceback: a.lua:3 < plugin.lua:7`, the Lua frames from the error out to the
  /// plugin's own file; empty otherwise.
  static func moduleTraceback(of message: String, traceback: String?, file: String) -> String {
    guard let location = location(of: message), !names(location.file, file) else { return "" }
    var frames: [String] = []
    for frame in ["\(location.file):\(location.line)"] + luaFrames(in: traceback) where !frames.contains(frame) {
      frames.append(frame)
      if let chunk = frame.split(separator: ":").first, names(String(chunk), file) { break }
    }
    guard frames.count > 1 else { return "" }
    return "; traceback: " + frames.joined(separator: " < ")
  }

  /// Whether the message starts with `something:digits: `.
  package static func hasLocation(_ message: String) -> Bool { prefixRange(of: message) != nil }

  private static func prefixRange(of message: String) -> Range<String.Index>? {
    // The first ":<digits>: " not preceded by whitespace-only text.
    var index = message.startIndex
    while let colon = message[index...].firstIndex(of: ":") {
      var cursor = message.index(after: colon)
      var sawDigit = false
      while cursor < message.endIndex, message[cursor].isNumber {
        sawDigit = true
        cursor = message.index(after: cursor)
      }
      if sawDigit, cursor < message.endIndex, message[cursor] == ":" {
        let afterColon = message.index(after: cursor)
        let end =
          afterColon < message.endIndex && message[afterColon] == " " ? message.index(after: afterColon) : afterColon
        let head = message[..<colon]
        if !head.isEmpty, !head.contains("\n") { return message.startIndex..<end }
        return nil
      }
      index = message.index(after: colon)
      if message[..<index].contains("\n") { return nil }
    }
    return nil
  }

  /// The first `source:line` of Lua code in a traceback (skipping `[C]` frames).
  package static func firstLuaFrame(in traceback: String?) -> String? {
    guard let traceback else { return nil }
    for raw in traceback.split(separator: "\n") {
      let line = String(raw.trimmingPrefix("\t"))
      guard !line.hasPrefix("[C]"), !line.hasPrefix("stack traceback"), !line.hasPrefix("(sandbox)") else {
        continue
      }
      if let range = prefixRange(of: line) { return String(line[range].dropLast(2)) }
    }
    return nil
  }
}
