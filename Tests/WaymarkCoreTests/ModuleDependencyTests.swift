import Foundation
import Testing

/// The modules use each other one way, as `docs/architecture.md` ("Modules") writes it in a
/// table: `Package.swift` gives each module exactly the dependencies of its row, and no Swift
/// file of a module imports one of the package's modules its row leaves out. A new arrow
/// (the runtime using the scenarios, a library using the command line) fails here until the
/// page says so, and SwiftPM refuses it if it closes a cycle.
@Suite struct ModuleDependencyTests {
  /// The page's table: module -> the package modules it uses.
  static func documented() throws -> [String: Set<String>] {
    let page = try ArchitectureDocTests.read("docs/architecture.md")
    let header = try #require(page.range(of: "| module | uses |\n"), "docs/architecture.md has no module table")
    var rows: [String: Set<String>] = [:]
    for line in page[header.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
      .prefix(while: { $0.hasPrefix("|") }) where line.hasPrefix("| `")
    {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 2 else { continue }
      rows[cells[0].trimmingCharacters(in: ["`"])] = Set(names(in: cells[1]))
    }
    return rows
  }

  /// The names between backquotes in `text`.
  static func names(in text: String) -> [String] {
    text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }

  /// Each regular or executable target of `manifest` -> the names of its dependencies.
  static func targets(in manifest: String) -> [String: Set<String>] {
    var targets: [String: Set<String>] = [:]
    for marker in [".target(", ".executableTarget("] {
      var rest = Substring(manifest)
      while let start = rest.range(of: marker) {
        rest = rest[start.upperBound...]
        let call = rest.prefix(while: { $0 != ")" })
        guard let name = quoted(in: call).first else { continue }
        var dependencies: Set<String> = []
        if let list = call.range(of: "dependencies:") {
          dependencies = Set(quoted(in: call[list.upperBound...].prefix(while: { $0 != "]" })))
        }
        targets[name] = dependencies
      }
    }
    return targets
  }

  /// The string literals in `text`, in order.
  static func quoted(in text: Substring) -> [String] {
    text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }

  /// The modules the Swift files of `Sources/module` import (`@testable`, `package import`
  /// and `import struct M.T` included).
  static func imports(of module: String) throws -> [String: String] {
    var found: [String: String] = [:]
    for file in try ArchitectureDocTests.swiftFiles(under: "Sources/\(module)") {
      let text = try ArchitectureDocTests.read("Sources/\(module)/\(file)")
      for line in text.split(separator: "\n") {
        var words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
        if let first = words.first, ["public", "package", "internal"].contains(first) { words.removeFirst() }
        guard words.count >= 2, words[0] == "import" else { continue }
        let kinds: Set<Substring> = ["struct", "class", "enum", "func", "var", "let", "protocol", "typealias"]
        let path = words.count >= 3 && kinds.contains(words[1]) ? words[2] : words[1]
        found[String(path.split(separator: ".")[0]), default: file] = file
      }
    }
    return found
  }

  @Test("Package.swift gives each module the dependencies docs/architecture.md writes")
  func manifestMatchesThePage() throws {
    let rows = try Self.documented()
    #expect(rows["WaymarkScripting"] != nil && rows["WaymarkScenarios"] != nil, "the table was not found")
    let targets = Self.targets(in: try ArchitectureDocTests.read("Package.swift"))
    for (module, uses) in rows {
      let declared = try #require(
        targets[module], "docs/architecture.md lists \(module), Package.swift has no such target")
      #expect(declared == uses, "\(module): Package.swift has \(declared.sorted()), the page \(uses.sorted())")
    }
    let sources = try FileManager.default.contentsOfDirectory(
      atPath: ArchitectureDocTests.root.appendingPathComponent("Sources").path)
    for module in sources where targets[module] != nil {
      #expect(rows[module] != nil, "Sources/\(module) has no row in docs/architecture.md's module table")
    }
  }

  @Test("No file of a module imports a package module its row leaves out")
  func importsStayInsideTheRow() throws {
    let rows = try Self.documented()
    let systemLibraries: Set<String> = ["CLua", "CMicroHTTPD", "CEditLine"]
    let packageModules = Set(rows.keys).union(systemLibraries)
    for (module, uses) in rows {
      for (imported, file) in try Self.imports(of: module)
      where packageModules.contains(imported) && !uses.contains(imported) {
        Issue.record(
          "Sources/\(module)/\(file) imports \(imported), which docs/architecture.md does not let \(module) use")
      }
    }
  }

  @Test("The runtime knows nothing of the scenarios above it")
  func theRuntimeDoesNotUseTheScenarios() throws {
    let rows = try Self.documented()
    #expect(rows["WaymarkScripting"]?.contains("WaymarkScenarios") == false)
    #expect(rows["WaymarkScenarios"]?.contains("WaymarkScripting") == true)
    #expect(try Self.imports(of: "WaymarkScripting")["WaymarkScenarios"] == nil)
  }

  @Test("The checks read what they are given")
  func theReadersSeeWhatIsThere() {
    let manifest = """
      .target(name: "A"),
      .target(
        name: "B", dependencies: ["A", "C"],
        exclude: ["x"]),
      .executableTarget(name: "D", dependencies: ["B"]),
      .testTarget(name: "BTests", dependencies: ["B"]),
      """
    #expect(Self.targets(in: manifest) == ["A": [], "B": ["A", "C"], "D": ["B"]])
    #expect(Self.names(in: "`A`, `B` and `C`") == ["A", "B", "C"])
  }
}
