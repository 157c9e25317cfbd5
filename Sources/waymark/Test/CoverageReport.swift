import Foundation
import LuaKit

/// What `--coverage` records of one Lua file in one test file's run (see ``LuaCoverage``).
struct CoveredFile: Codable, Equatable {
  /// The file's absolute path.
  var path: String
  /// `[line, hits]` of every line that ran.
  var hits: [[Int]]
  /// Lines known to hold code (in functions that were called).
  var code: [Int]
  /// Lines known to hold none (in functions that were called).
  var empty: [Int]

  /// What `LuaCoverage` recorded of the files among `loaded` (those the run read from disk:
  /// the test file, plugins, modules) that lie inside `project`, links resolved, by absolute
  /// path. A chunk given a file's name by `load(code, "@/etc/hostname")` was read from no file
  /// of the project: it is left out, and that file is never read.
  static func from(_ files: [LuaCoverage.File], loaded: [String], project: String) -> [CoveredFile] {
    let root = URL(fileURLWithPath: project).resolvingSymlinksInPath().standardizedFileURL.path
    let inside = Set(
      loaded.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.filter {
        URL(fileURLWithPath: $0).resolvingSymlinksInPath().path.hasPrefix(root == "/" ? "/" : root + "/")
      })
    return files.filter { inside.contains(URL(fileURLWithPath: $0.path).standardizedFileURL.path) }.map { file in
      CoveredFile(
        path: URL(fileURLWithPath: file.path).standardizedFileURL.path,
        hits: file.hits.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }, code: file.codeLines.sorted(),
        empty: file.emptyLines.sorted())
    }
  }
}

/// `waymark test --coverage FILE`: the lines of plugins and scripts that ran, across every
/// test file, as an lcov tracefile (what `genhtml` turns into pages).
enum CoverageReport {
  /// The tracefile: per source file `SF:`, a `DA:line,hits` for every line with code, `LH`,
  /// `LF`, `end_of_record`. Lines with code are those Lua lists for the functions that were
  /// called; in functions never called, the lines that are not blank, comments or lone
  /// closing words (`end`, `else`, `}`) count as code that did not run. A file whose name
  /// holds a control character is left out (an lcov line cannot hold a line break, and
  /// lcov has no escape): `leftOut` names them, escaped.
  static func lcov(_ results: [TestFileResult]) -> (text: String, leftOut: [String]) {
    var merged: [String: (hits: [Int: Int], code: Set<Int>, empty: Set<Int>)] = [:]
    for file in results.flatMap({ $0.coverage ?? [] }) {
      var entry = merged[file.path] ?? ([:], [], [])
      for pair in file.hits where pair.count == 2 { entry.hits[pair[0], default: 0] += pair[1] }
      entry.code.formUnion(file.code)
      entry.empty.formUnion(file.empty)
      merged[file.path] = entry
    }
    var out: [String] = []
    var leftOut: [String] = []
    for path in merged.keys.sorted() {
      guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
        leftOut.append(TestReports.safe(path))
        continue
      }
      let entry = merged[path]!
      let source = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
      var lines = entry.code.union(entry.hits.keys)
      for line in likelyCode(in: source) where !entry.empty.contains(line) { lines.insert(line) }
      out += ["TN:", "SF:\(path)"]
      for line in lines.sorted() where line > 0 { out.append("DA:\(line),\(entry.hits[line] ?? 0)") }
      out.append("LH:\(lines.filter { (entry.hits[$0] ?? 0) > 0 }.count)")
      out.append("LF:\(lines.filter { $0 > 0 }.count)")
      out.append("end_of_record")
    }
    return (out.joined(separator: "\n") + (out.isEmpty ? "" : "\n"), leftOut)
  }

  /// The lines of Lua source that look like code: not blank, not only a comment, not only
  /// closing words. Long strings and comments (`[[ ]]`, `--[==[ ]==]`) are skipped.
  static func likelyCode(in source: String) -> Set<Int> {
    var found = Set<Int>()
    var longClose: String?  // the closing bracket of a long string or comment still open
    for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = Substring(raw)
      var code = ""
      while !line.isEmpty {
        if let close = longClose {
          guard let end = line.range(of: close) else {
            line = ""
            break
          }
          line = line[end.upperBound...]
          longClose = nil
          continue
        }
        if line.hasPrefix("--") {
          let rest = line.dropFirst(2)
          if let level = longBracket(rest) {
            longClose = "]" + String(repeating: "=", count: level) + "]"
            line = rest.dropFirst(level + 2)
            continue
          }
          break
        }
        if line.first == "[", let level = longBracket(line) {
          code += "s"
          longClose = "]" + String(repeating: "=", count: level) + "]"
          line = line.dropFirst(level + 2)
          continue
        }
        code.append(line.removeFirst())
      }
      let words = code.split(whereSeparator: { " \t\r,;".contains($0) })
      let closing: Set<Substring> = ["end", "else", "}", ")", "})", "end)", "end,", "end)"]
      if !words.isEmpty, !words.allSatisfy({ closing.contains($0) }) { found.insert(index + 1) }
    }
    return found
  }

  /// The level of a long bracket (`[[` 0, `[==[` 2) at the start of `text`, if it opens one.
  private static func longBracket(_ text: Substring) -> Int? {
    guard text.first == "[" else { return nil }
    let equals = text.dropFirst().prefix { $0 == "=" }.count
    return text.dropFirst(1 + equals).first == "[" ? equals : nil
  }
}
