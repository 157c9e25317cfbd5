import Foundation

/// Reads a script or plugin file with the checks a person deserves clear messages for.
package enum ScriptFiles {
  /// The file's bytes as Lua will compile them (any bytes: Lua takes Latin-1 or other
  /// non-UTF-8 bytes in strings and comments), or a one-line reason naming the path.
  package static func readSource(_ path: String, maxSize: Int) -> Result<LuaSource, ScriptFileError> {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .failure(ScriptFileError("\(path): no such file (looked for \(absolute(path)))"))
    }
    guard !isDirectory.boolValue else {
      return .failure(ScriptFileError("\(path): is a directory, not a Lua file"))
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failure(ScriptFileError("\(path): cannot be read (permission denied?)"))
    }
    guard data.count <= maxSize else {
      return .failure(
        ScriptFileError("\(path): is too large (\(data.count) bytes; the limit is \(maxSize))"))
    }
    guard !data.isEmpty else { return .failure(ScriptFileError("\(path): is empty")) }
    let bytes = [UInt8](data)
    if let zero = bytes.firstIndex(of: 0) {
      let line = bytes[..<zero].count { $0 == 0x0A } + 1
      let column = zero - (bytes[..<zero].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
      return .failure(
        ScriptFileError(
          "\(path):\(line): is a binary file, not Lua source (a NUL byte at column \(column))", line: line))
    }
    return .success(LuaSource(file: bytes))
  }

  /// The absolute, standardized form of `path`, for messages that name where we looked.
  package static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// `path` resolved against `folder` unless absolute, without `./` and `a/../`.
  package static func resolve(_ path: String, against folder: String) -> String {
    let joined = path.hasPrefix("/") ? path : (folder == "." ? path : folder + "/" + path)
    var parts: [Substring] = []
    for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
      } else {
        parts.append(part)
      }
    }
    let body = parts.joined(separator: "/")
    return joined.hasPrefix("/") ? "/" + body : (body.isEmpty ? "." : body)
  }
}

/// Why a file could not be used.
package struct ScriptFileError: Error {
  /// The whole message, starting with the path (and the line, if there is one).
  package let message: String
  /// The 1-based line of the problem, if it is at one.
  let line: Int?
  /// An error whose `message` starts with the path, at `line` if the problem is at one.
  package init(_ message: String, line: Int? = nil) {
    self.message = message
    self.line = line
  }
}
