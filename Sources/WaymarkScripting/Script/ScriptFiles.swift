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
    guard !data.contains(0) else {
      return .failure(ScriptFileError("\(path): is not Lua source (binary, or not UTF-8 text)"))
    }
    let bytes = [UInt8](data)
    if let bad = firstInvalidUTF8(bytes) {
      let line = bytes[..<bad].count { $0 == 0x0A } + 1
      let column = bad - (bytes[..<bad].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
      let byte = String(bytes[bad], radix: 16, uppercase: true)
      return .failure(
        ScriptFileError(
          "\(path):\(line):\(column): is not UTF-8 text (byte 0x\(byte)): save the file as UTF-8, or write the byte as an escape in a string (decimal \(bytes[bad]))"
        ))
    }
    return .success(String(decoding: bytes, as: UTF8.self))
  }

  /// Where the first byte that is not part of well-formed UTF-8 is (overlong forms,
  /// surrogates and code points past U+10FFFF are not), or nil.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var i = 0
    while i < bytes.count {
      let lead = bytes[i]
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, low) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, high) = (3, 0x9F)
      case 0xF0: (length, low) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, high) = (4, 0x8F)
      default: return i
      }
      for k in 1..<length {
        guard i + k < bytes.count else { return i }
        let continuation = bytes[i + k]
        let (from, to) = k == 1 ? (low, high) : (0x80, 0xBF)
        guard continuation >= from && continuation <= to else { return i }
      }
      i += length
    }
    return nil
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
