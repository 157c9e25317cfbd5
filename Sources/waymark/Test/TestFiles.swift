import Foundation
import WaymarkScenarios

/// Which files `waymark test` runs: every `*_test.lua` and `*_spec.lua` under the folders
/// given (or, with patterns, every `.lua` file whose name holds a match of one, as busted's
/// `--pattern`) and every file named directly, each once, sorted by path; `--shard I/N`
/// keeps a stable 1/N of them.
enum TestFiles {
  /// The suffixes of a test file found in a folder when no pattern is given.
  static let suffixes = ["_test.lua", "_spec.lua"]

  /// The files of `paths`, sorted by path (bytes), each once. Hidden folders (`.git`,
  /// `.build`) are not searched. A path that does not exist is a usage error. `patterns`
  /// (Lua patterns, busted's `--pattern`) replace the suffixes: a `.lua` file in a folder is
  /// a test file when its name holds a match of one of them.
  static func find(_ paths: [String], patterns: [String] = []) throws(UsageError) -> [String] {
    var found: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        throw UsageError(message: "\(path): no such file or folder (looked for \(absolute))")
      }
      found += isDirectory.boolValue ? testFiles(under: path, patterns: patterns) : [path]
    }
    var seen = Set<String>()
    return found.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }.filter {
      seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted
    }
  }

  /// Whether a file found in a folder is a test file.
  static func isTestFile(named name: String, patterns: [String]) -> Bool {
    guard !patterns.isEmpty else { return suffixes.contains { name.hasSuffix($0) } }
    return name.hasSuffix(".lua") && ScriptCases.anyMatches(patterns, in: name)
  }

  private static func testFiles(under folder: String, patterns: [String]) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
    var files: [String] = []
    while let relative = walker.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      if name.hasPrefix(".") {
        walker.skipDescendants()
        continue
      }
      guard isTestFile(named: name, patterns: patterns) else { continue }
      let path = folder == "." ? relative : (folder.hasSuffix("/") ? folder + relative : folder + "/" + relative)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files.append(path)
      }
    }
    return files
  }

  /// `I/N` (I from 1): which shard of how many.
  static func shard(_ text: String) throws(Refusal) -> (index: Int, count: Int)? {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (1...count).contains(index)
    else {
      throw Refusal("expected I/N with 1 <= I <= N, e.g. --shard 2/4 for the second of four jobs")
    }
    return (index, count)
  }

  /// Shard `index` of `count` of the sorted `files`: the files at positions index-1,
  /// index-1+count, ... The N shards of the same files together hold each file once, and
  /// their sizes differ by at most one.
  static func shard(_ files: [String], index: Int, count: Int) -> [String] {
    files.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
  }
}
