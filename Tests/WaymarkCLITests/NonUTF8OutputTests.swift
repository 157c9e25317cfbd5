import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Lua strings hold any bytes; what leaves Lua for a trace, a picture or a report reads them
/// as UTF-8 with each ill-formed piece as U+FFFD (docs/trace-format.md, "Strings that are not
/// UTF-8"), so every output stays valid UTF-8, JSON and XML, and the same run writes the same
/// bytes.
@Suite struct NonUTF8OutputTests {
  /// A title, a snippet, a marker id and a printed line that are Latin-1 and stray bytes.
  static let script = """
    local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 5 } }
    local s = "caf\\233 \\255\\128"
    print(s)
    local m = map:add_marker{ id = "m\\233", title = s, snippet = s, position = { lat = 0, lng = 0 } }
    map:tap(m)
    map:settle()

    """
  /// What the script's `s` reads as outside Lua.
  static let shown = "caf\u{FFFD} \u{FFFD}\u{FFFD}"

  /// The file's text if it is valid UTF-8 (else the test fails).
  static func utf8(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let text = String(data: try Data(contentsOf: url), encoding: .utf8)
    return try #require(text, "\(url.lastPathComponent) is not valid UTF-8", sourceLocation: sourceLocation)
  }

  /// Whether Foundation's XML parser reads the file to its end without an error.
  static func isWellFormedXML(_ url: URL) -> Bool {
    XMLParser(contentsOf: url)?.parse() == true
  }

  @Test func theJSONAndTextTracesStayValidAndDeterministic() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(Self.script.utf8).write(to: folder.appendingPathComponent("s.lua"))
    var runs: [Data] = []
    for name in ["a.jsonl", "b.jsonl"] {
      let result = try CLI.run(["run", "s.lua", "--trace", "json", "--trace-file", name], in: folder)
      #expect(result.status == 0, "\(result.stderr)")
      runs.append(try Data(contentsOf: folder.appendingPathComponent(name)))
    }
    #expect(runs[0] == runs[1], "the same run, the same bytes")
    let lines = try Self.utf8(folder.appendingPathComponent("a.jsonl")).split(separator: "\n")
    let records = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    #expect(records.first?["message"] as? String == Self.shown)
    #expect(records.contains { $0["event"] as? String == "did_tap_marker" && $0["marker"] as? String == "m\u{FFFD}" })
    _ = try CLI.run(["run", "s.lua", "--trace-file", "trace.txt"], in: folder)
    #expect(try Self.utf8(folder.appendingPathComponent("trace.txt")).contains(Self.shown))
  }

  @Test func aGoldenOfSuchATraceReadsBackTheSame() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("tests"), withIntermediateDirectories: true)
    try Data(Self.script.utf8).write(to: folder.appendingPathComponent("tests/bytes_test.lua"))
    let update = try CLI.run(["test", "tests", "--golden", "golden", "--update"], in: folder)
    #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
    let again = try CLI.run(["test", "tests", "--golden", "golden"], in: folder)
    #expect(again.status == 0, "the golden compares equal: \(again.stdout)")
  }

  @Test func svgAndTheHTMLReplayStayWellFormed() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // U+FFFE and U+FFFF are UTF-8 but no XML characters; control characters neither.
    let more =
      "map:add_marker{ id = \"\\239\\191\\190\\1\\239\\191\\191\", title = \"\\239\\191\\190\\1\\239\\191\\191\", position = { lat = 1, lng = 1 } }\n"
    try Data((Self.script + more + "map:snapshot(\"pic.svg\")\n").utf8).write(
      to: folder.appendingPathComponent("s.lua"))
    let result = try CLI.run(["run", "s.lua", "--trace", "none", "--html", "replay.html"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let svg = folder.appendingPathComponent("pic.svg")
    #expect(try Self.utf8(svg).contains(Self.shown))
    #expect(Self.isWellFormedXML(svg))
    #expect(try Self.utf8(folder.appendingPathComponent("replay.html")).contains(Self.shown))
  }

  @Test func junitAndTAPStayValid() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("tests"), withIntermediateDirectories: true)
    try Data((Self.script + "expect_eq(s, \"cafe\", \"the name \\233\")\n").utf8).write(
      to: folder.appendingPathComponent("tests/fail_test.lua"))
    let junit = try CLI.run(["test", "tests", "--junit", "report.xml"], in: folder)
    #expect(junit.status == 1)
    let report = folder.appendingPathComponent("report.xml")
    #expect(try Self.utf8(report).contains("the name \u{FFFD}"))
    #expect(Self.isWellFormedXML(report))
    let tap = try CLI.shell("'\(CLI.executable.path)' test tests --tap > tap.txt", in: folder)
    #expect(tap.status == 1)
    #expect(try Self.utf8(folder.appendingPathComponent("tap.txt")).contains("the name \u{FFFD}"))
  }

  @Test func theLiveServersJSONStaysValid() throws {
    let served = try ServeCommandTests.Served(script: Self.script)
    let match = try #require(served.line.wholeMatch(of: /serving http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{32})/))
    let stateURL = try #require(URL(string: "http://127.0.0.1:\(match.1)/state?token=\(match.2)"))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: stateURL)) as? [String: Any])
    let marker = (json["markers"] as? [[String: Any]])?.first
    #expect(marker?["id"] as? String == "m\u{FFFD}")
    #expect(served.stop().status == 0)
  }
}
