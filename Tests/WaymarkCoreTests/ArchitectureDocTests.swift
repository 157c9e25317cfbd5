import Foundation
import Testing

/// The numbers `docs/architecture.md` states, computed from the sources: the page states
/// invariants, and a number that goes stale fails here (change the code back, or the page).
@Suite struct ArchitectureDocTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The Swift files under `folder`, relative to it, sorted.
  static func swiftFiles(under folder: String) throws -> [String] {
    let base = root.appendingPathComponent(folder)
    guard let walk = FileManager.default.enumerator(atPath: base.path) else { return [] }
    return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
  }

  /// The integer the page writes right after `prefix` (`#require`d to be there).
  static func number(after prefix: String, in page: String) throws -> Int {
    let start = try #require(page.range(of: prefix), "docs/architecture.md no longer says \"\(prefix)\"")
    let digits = page[start.upperBound...].prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)
    return try #require(Int(String(digits)), "no number after \"\(prefix)\"")
  }

  /// The stored instance properties of the class declared as `final class name` in `source`:
  /// the `let`s and the `var`s with an initial value or no body, at the class's own level.
  static func storedProperties(ofClass name: String, in source: String) -> [String] {
    var depth = 0
    var inside = false
    var names: [String] = []
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      let code = line.trimmingCharacters(in: .whitespaces)
      if !inside, code.contains("final class \(name) ") || code.contains("final class \(name):") {
        inside = true
      } else if inside && depth == 1 && !code.hasPrefix("//") && !code.contains("static ") {
        let words = code.split(whereSeparator: { $0 == " " || $0 == ":" }).map(String.init)
        if let at = words.firstIndex(where: { $0 == "let" || $0 == "var" }), at + 1 < words.count {
          let beforeBody = code.split(separator: "{", maxSplits: 1).first ?? ""
          if words[at] == "let" || beforeBody.contains("=") || !code.contains("{") { names.append(words[at + 1]) }
        }
      }
      if inside {
        depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
        if depth == 0 && code.contains("}") { break }
      }
    }
    return names
  }

  @Test("The page's count of MapView's stored properties is MapView's")
  func mapViewStoredProperties() throws {
    let page = try Self.read("docs/architecture.md")
    let properties = Self.storedProperties(
      ofClass: "MapView", in: try Self.read("Sources/WaymarkCore/Map/MapView.swift"))
    #expect(properties.contains("clock") && properties.contains("store"), "the scan found \(properties)")
    #expect(try Self.number(after: "`MapView` holds ", in: page) == properties.count, "\(properties)")
  }

  @Test("The page's count of LuaKit files that touch C is the count of those importing a C module")
  func luaKitFilesTouchingC() throws {
    let page = try Self.read("docs/architecture.md")
    let touching = try Self.swiftFiles(under: "Sources/LuaKit").filter { file in
      let source = try Self.read("Sources/LuaKit/\(file)")
      return source.contains("import CLua\n") || source.contains("import CLuaShims\n")
    }
    #expect(touching.contains("Internals/LuaC.swift"))
    #expect(try Self.number(after: "LuaKit's files that touch C: ", in: page) == touching.count, "\(touching)")
  }

  @Test("WaymarkCore's public surface stays within the bound the page sets")
  func publicSurfaceBound() throws {
    let page = try Self.read("docs/architecture.md")
    // What `grep -rwn public Sources/WaymarkCore | wc -l` counts: lines with the word.
    let lines = try Self.swiftFiles(under: "Sources/WaymarkCore").flatMap { file in
      try Self.read("Sources/WaymarkCore/\(file)").split(separator: "\n").filter { line in
        line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).contains("public")
      }
    }
    #expect(lines.count > 0)
    #expect(lines.count <= (try Self.number(after: "| wc -l` stays at most ", in: page)))
  }
}
