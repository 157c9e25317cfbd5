import Foundation

/// Reads a script or plugin file with the checks a person deserves clear messages for.
enum ScriptFiles {
  /// The file's text, or a one-line reason naming the path.
  static func readText(_ path: String, maxSize: Int) -> Result<String, ScriptFileError> {
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
    guard !data.contains(0), let text = String(data: data, encoding: .utf8) else {
      return .failure(ScriptFileError("\(path): is not Lua source (binary, or not UTF-8 text)"))
    }
    return .success(text)
  }

  /// The absolute, standardized form of `path`, for messages that name where we looked.
  static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// `path` resolved against `folder` unless absolute, without `./` and `a/../`.
  static func resolve(_ path: String, against folder: String) -> String {
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
struct ScriptFileError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
