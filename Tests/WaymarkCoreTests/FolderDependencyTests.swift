import Foundation
import Testing

/// Inside a module, folders depend on each other in one direction (`docs/architecture.md`,
/// "Modules"): a folder that names a type declared in another folder depends on it, and no
/// chain of such dependencies leads back to where it started. A cycle means two folders are
/// one concern split in two, or a type that lives in the wrong place.
@Suite struct FolderDependencyTests {
  /// The modules whose folders are checked.
  static let modules = [
    "LuaKit", "WaymarkCore", "WaymarkRender", "WaymarkScenarios", "WaymarkScripting", "WaymarkServe", "WaymarkTesting",
    "waymark",
  ]

  @Test("No folder of a module depends on itself through other folders", arguments: modules)
  func foldersFormNoCycle(module: String) throws {
    let graph = try FolderGraph(module: module)
    #expect(graph.folders.count >= 1, "no Swift file under Sources/\(module)")
    for cycle in graph.cycles() {
      let edges = cycle.flatMap { from in
        cycle.compactMap { to in
          graph.edges[from]?[to].map { "\(from) -> \(to): \($0.sorted().joined(separator: ", "))" }
        }
      }
      Issue.record(
        "Sources/\(module): the folders \(cycle.joined(separator: ", ")) form a cycle:\n\(edges.joined(separator: "\n"))"
      )
    }
  }

  @Test("The check finds a cycle where there is one")
  func theCheckSeesACycle() {
    let graph = FolderGraph(files: [
      ("A/One.swift", "struct One { var two: Two? }"),
      ("B/Two.swift", "/* One */ let s = \"One\"\nfinal class Two { let three = Three() }"),
      ("C/Three.swift", "public struct Three { func f(_ one: One) {} }"),
      ("D/Four.swift", "enum Four { case a(One) }"),
    ])
    #expect(graph.cycles() == [["A", "B", "C"]])
    #expect(graph.edges["B"]?["A"] == nil, "a name in a comment or a string is no dependency")
  }
}

/// The folders of one module and, for each, the folders whose top-level types its code names.
struct FolderGraph {
  /// folder -> folder it depends on -> the type names that make the dependency.
  var edges: [String: [String: Set<String>]] = [:]
  var folders: Set<String> = []

  init(module: String) throws {
    let base = ArchitectureDocTests.root.appendingPathComponent("Sources/\(module)")
    let files = try ArchitectureDocTests.swiftFiles(under: "Sources/\(module)").map { path in
      (path, try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8))
    }
    self.init(files: files)
  }

  /// `files` are paths relative to the module's folder with their text; a file at the top
  /// of the module is in the folder ".".
  init(files: [(path: String, text: String)]) {
    let code = files.map { (folder: Self.folder(of: $0.path), text: Self.codeOnly($0.text)) }
    var owners: [String: Set<String>] = [:]
    for file in code {
      folders.insert(file.folder)
      for name in Self.topLevelTypes(in: file.text) { owners[name, default: []].insert(file.folder) }
    }
    for file in code {
      for name in Self.identifiers(in: file.text) {
        for owner in owners[name] ?? [] where owner != file.folder {
          edges[file.folder, default: [:]][owner, default: []].insert(name)
        }
      }
    }
  }

  static func folder(of path: String) -> String {
    let parts = path.split(separator: "/")
    return parts.count > 1 ? String(parts[0]) : "."
  }

  /// The strongly connected components of more than one folder, each sorted, in name order.
  func cycles() -> [[String]] {
    var index: [String: Int] = [:]
    var low: [String: Int] = [:]
    var stack: [String] = []
    var onStack: Set<String> = []
    var components: [[String]] = []
    func visit(_ v: String) {
      index[v] = index.count
      low[v] = index[v]
      stack.append(v)
      onStack.insert(v)
      for w in (edges[v] ?? [:]).keys.sorted() {
        if index[w] == nil {
          visit(w)
          low[v] = min(low[v]!, low[w]!)
        } else if onStack.contains(w) {
          low[v] = min(low[v]!, index[w]!)
        }
      }
      guard low[v] == index[v] else { return }
      var component: [String] = []
      while let w = stack.popLast() {
        onStack.remove(w)
        component.append(w)
        if w == v { break }
      }
      if component.count > 1 { components.append(component.sorted()) }
    }
    for folder in folders.sorted() where index[folder] == nil { visit(folder) }
    return components.sorted { $0[0] < $1[0] }
  }

  /// The text with comments and string literals blanked out.
  static func codeOnly(_ text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let c = rest.first {
      if rest.hasPrefix("//") {
        rest = rest.drop { $0 != "\n" }
      } else if rest.hasPrefix("/*") {
        rest = rest.dropFirst(2)
        while !rest.isEmpty && !rest.hasPrefix("*/") { rest = rest.dropFirst() }
        rest = rest.dropFirst(2)
      } else if rest.hasPrefix("\"\"\"") {
        rest = rest.dropFirst(3)
        while !rest.isEmpty && !rest.hasPrefix("\"\"\"") { rest = rest.dropFirst() }
        rest = rest.dropFirst(3)
        out += "\"\""
      } else if c == "\"" {
        rest = rest.dropFirst()
        while let d = rest.first, d != "\"", d != "\n" { rest = rest.dropFirst(d == "\\" ? 2 : 1) }
        rest = rest.dropFirst()
        out += "\"\""
      } else {
        out.append(c)
        rest = rest.dropFirst()
      }
    }
    return out
  }

  /// The names of the types, protocols and aliases declared at the top level (no indentation).
  static func topLevelTypes(in code: String) -> [String] {
    let keywords: Set<Substring> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
    return code.split(separator: "\n").compactMap { line in
      guard let first = line.first, first.isLetter || first == "@" else { return nil }
      let words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "@") })
      guard let at = words.firstIndex(where: { keywords.contains($0) }), at + 1 < words.count,
        words[..<at].allSatisfy({ $0.first == "@" || Self.modifiers.contains($0) })
      else { return nil }
      return String(words[at + 1])
    }
  }

  static let modifiers: Set<Substring> = [
    "public", "package", "internal", "private", "fileprivate", "final", "open", "indirect",
  ]

  /// Every identifier that starts with a capital letter.
  static func identifiers(in code: String) -> Set<String> {
    Set(
      code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        .filter { $0.first?.isUppercase == true }.map(String.init))
  }
}
