import Foundation
import Testing

/// `waymark test --coverage FILE` writes an lcov tracefile of the plugin and script lines that
/// ran (genhtml reads it); `--profile` prints calls, total and slowest time per handler.
@Suite struct CoverageAndProfileTests {
  static let plugin = """
    local p = { name = "guide" }
    function p.did_tap_marker(map, marker)
      if marker.id == "secret" then
        return true
      end
      return false
    end
    function p.did_long_press_at_coordinate(map, coordinate)
      map:log("never pressed")
    end
    return p
    """
  static let test = """
    local map = waymark.map{ plugins = { "plugins" } }
    local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
    map:tap(m)
    map:tap(m)
    """

  func suite() throws -> URL {
    let folder = try CLI.temporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("plugins"), withIntermediateDirectories: true)
    try Data(Self.plugin.utf8).write(to: folder.appendingPathComponent("plugins/guide.lua"))
    try Data(Self.test.utf8).write(to: folder.appendingPathComponent("tap_test.lua"))
    return folder
  }

  /// `DA:line,hits` of each file of an lcov text.
  func lines(_ lcov: String) -> [String: [Int: Int]] {
    var files: [String: [Int: Int]] = [:]
    var current = ""
    for line in lcov.split(separator: "\n") {
      if line.hasPrefix("SF:") { current = String(line.dropFirst(3)) }
      if line.hasPrefix("DA:") {
        let parts = line.dropFirst(3).split(separator: ",").compactMap { Int($0) }
        if parts.count == 2 { files[current, default: [:]][parts[0]] = parts[1] }
      }
    }
    return files
  }

  @Test func coverageIsAnLcovTracefileOfTheLinesThatRan() throws {
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", ".", "--coverage", "coverage.info"], in: folder)
    #expect(result.status == 0, "\(result.stdout)")
    let lcov = try String(contentsOf: folder.appendingPathComponent("coverage.info"), encoding: .utf8)
    let files = lines(lcov)
    let root = folder.standardizedFileURL.path
    let plugin = try #require(files[root + "/plugins/guide.lua"], "\(lcov)")
    #expect(plugin[3] == 2, "the test taps twice")
    #expect(plugin[4] == 0, "the secret branch never ran")
    #expect(plugin[6] == 2)
    #expect(plugin[9] == 0, "a handler never called still shows its line")
    #expect(plugin[1] == 1 && plugin[11] == 1, "the top level ran once")
    #expect(plugin[5] == nil, "a lone end is not code")
    let script = try #require(files[root + "/tap_test.lua"])
    #expect(script[3] == 1 && script[4] == 1)
    #expect(lcov.hasSuffix("end_of_record\n"))
    let html = try CLI.shell("genhtml coverage.info --output-directory html --quiet", in: folder)
    #expect(html.status == 0, "\(html.output)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("html/index.html").path))
  }

  @Test func aLatin1PluginsHandlerNeverCalledStillShowsItsLine() throws {
    // Sources are bytes (docs/plugins.md, "Sandbox"): coverage reads a Latin-1 file too.
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    let latin1 = Self.plugin.replacingOccurrences(of: "never pressed", with: "jamais press\u{E9}")
    try Data(latin1.unicodeScalars.map { UInt8($0.value) }).write(
      to: folder.appendingPathComponent("plugins/guide.lua"))
    let result = try CLI.run(["test", ".", "--coverage", "coverage.info"], in: folder)
    #expect(result.status == 0, "\(result.stdout)")
    let lcov = try String(contentsOf: folder.appendingPathComponent("coverage.info"), encoding: .utf8)
    let plugin = try #require(lines(lcov)[folder.standardizedFileURL.path + "/plugins/guide.lua"], "\(lcov)")
    #expect(plugin[9] == 0, "the Latin-1 line of a handler never called")
    #expect(plugin[3] == 2)
  }

  @Test func profilePrintsCallsTotalAndSlowestPerHandler() throws {
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", ".", "--profile"], in: folder)
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("profile: plugin") && $0.contains("calls") && $0.contains("slowest") })
    let row = try #require(lines.first { $0.contains("guide") && $0.contains("did_tap_marker") })
    #expect(row.split(separator: " ").contains("2"), "two calls: \(row)")
    #expect(row.hasSuffix(" ms"))
    #expect(lines.last == "1 passed, 0 failed")
  }
}
