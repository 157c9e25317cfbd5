import Foundation
import Testing

/// The C shim's files call each other one way, as `docs/architecture.md` ("The C shim") says
/// row by row: the budget in four layers (stop, instructions, watchdog, budget), objects above
/// the trampoline, the libraries above the budget. A call that goes back up, or a file the
/// table does not describe, fails here.
@Suite struct ShimLayoutTests {
  static let folder = "Sources/CLuaShims"

  @Test("Each .c file calls exactly the files its row of the C shim table names")
  func callsMatchTheTable() throws {
    let table = try Self.documentedCalls()
    let calls = try Self.calls()
    #expect(Set(table.keys) == Set(calls.keys), "the table's files are not the folder's .c files")
    for (file, called) in calls.sorted(by: { $0.key < $1.key }) {
      #expect(table[file] == called, "\(file) calls \(called.sorted()), the table says \((table[file] ?? []).sorted())")
    }
  }

  @Test("No file of the shim reaches itself through the files it calls")
  func noCycle() throws {
    let calls = try Self.calls()
    for start in calls.keys.sorted() {
      var seen: Set<String> = []
      var stack = Array(calls[start] ?? [])
      while let file = stack.popLast() {
        #expect(file != start, "\(start) reaches itself through the files it calls")
        if file == start || !seen.insert(file).inserted { continue }
        stack.append(contentsOf: calls[file] ?? [])
      }
    }
  }

  @Test("The check sees a call, a function used as a value, and ignores comments and static functions")
  func theCheckSeesCalls() {
    let files = [
      "a.c": "int one(int x) {\n  return x;\n}\nstatic int hidden(void) { return 0; }\n",
      "b.c": "// one(1) in a comment\nvoid two(void) {\n  push(one);\n}\n",
      "c.c": "/* two() */ static int hidden(void) { return 1; }\nvoid three(void) { two(); }\n",
    ]
    let calls = Self.calls(in: files)
    #expect(calls == ["a.c": [], "b.c": ["a.c"], "c.c": ["b.c"]])
  }

  // MARK: - Reading the sources and the page

  /// The files each `.c` file of the shim calls (a function defined in another file, named
  /// in this one's code).
  static func calls() throws -> [String: Set<String>] {
    let base = ArchitectureDocTests.root.appendingPathComponent(folder)
    let names = try FileManager.default.contentsOfDirectory(atPath: base.path).filter { $0.hasSuffix(".c") }
    var files: [String: String] = [:]
    for name in names {
      files[name] = try String(contentsOf: base.appendingPathComponent(name), encoding: .utf8)
    }
    return calls(in: files)
  }

  static func calls(in files: [String: String]) -> [String: Set<String>] {
    let code = files.mapValues(codeOnly)
    var definedIn: [String: String] = [:]
    let definition = try! NSRegularExpression(
      pattern: #"^(?!static\b|typedef\b|extern\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{"#,
      options: [.anchorsMatchLines])
    for (file, text) in code {
      let range = NSRange(text.startIndex..., in: text)
      for match in definition.matches(in: text, range: range) {
        if let name = Range(match.range(at: 1), in: text) { definedIn[String(text[name])] = file }
      }
    }
    var result: [String: Set<String>] = [:]
    for (file, text) in code {
      let words = Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
      result[file] = Set(words.compactMap { definedIn[$0] }.filter { $0 != file })
    }
    return result
  }

  /// `text` without comments and string literals.
  static func codeOnly(_ text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let c = rest.first {
      if rest.hasPrefix("//") {
        rest = rest.drop { $0 != "\n" }
      } else if rest.hasPrefix("/*") {
        rest = rest.dropFirst(2)
        if let end = rest.range(of: "*/") { rest = rest[end.upperBound...] } else { rest = "" }
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

  /// The table of `docs/architecture.md`'s "The C shim": each file's row and the files in its
  /// "Calls" column.
  static func documentedCalls() throws -> [String: Set<String>] {
    let page = try ArchitectureDocTests.read("docs/architecture.md")
    let section = try #require(page.range(of: "## The C shim"), "docs/architecture.md has no \"The C shim\" section")
    var rows: [String: Set<String>] = [:]
    for line in page[section.upperBound...].split(separator: "\n").prefix(while: { !$0.hasPrefix("## ") }) {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count == 5, cells[1].hasPrefix("`"), cells[1].hasSuffix(".c`") else { continue }
      let called = cells[3].split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"])
      }
      rows[cells[1].trimmingCharacters(in: ["`"])] = Set(called.filter { !$0.isEmpty })
    }
    return rows
  }
}
