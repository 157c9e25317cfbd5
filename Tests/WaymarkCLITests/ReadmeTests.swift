import Foundation
import Testing

/// The README's tutorial really runs: its Lua files are written where their first line says,
/// and its `swift run waymark ...` commands run against them.
@Suite struct ReadmeTests {
  static let readme = (try? String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

  /// The fenced blocks of a language, in order.
  static func blocks(_ language: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```\(language)" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current!.joined(separator: "\n") + "\n")
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test func theTwoCommandsComeFirstAndAreTheOnesCIRuns() {
    let shell = Self.blocks("sh")
    #expect(shell.first == "scripts/setup.sh && swift run waymark run scripts/marker_events.lua\n")
    #expect(shell.dropFirst().first == "scripts/test.sh\n")
    let ci = (try? String(contentsOf: CLI.root.appendingPathComponent(".ci/run"), encoding: .utf8)) ?? ""
    #expect(ci.contains("scripts/setup.sh") && ci.contains("scripts/test.sh"))
  }

  /// Saves the tutorial's Lua files where their first line says (`-- my_scenario.lua`) in
  /// `folder`; their paths.
  @discardableResult
  static func saveTutorialFiles(in folder: URL) throws -> [String] {
    var written: [String] = []
    for block in blocks("lua") {
      guard let first = block.split(separator: "\n").first, first.hasPrefix("-- "), first.hasSuffix(".lua") else {
        continue
      }
      let path = String(first.dropFirst(3))
      let file = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(block.utf8).write(to: file)
      written.append(path)
    }
    return written
  }

  @Test func theTutorialRunsAsWritten() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try Self.saveTutorialFiles(in: folder)
    #expect(written == ["my_plugins/first.lua", "my_scenario.lua"])
    // (A generous handler budget, so that a loaded test machine cannot turn a stall into an error.)
    let run = try CLI.run(["run", "my_scenario.lua", "--budget", "2000"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("did_tap_marker               tower        result=false"))
    #expect(run.stdout.contains("marker_info_window           tower        result=content plugin=first"))
    #expect(run.stdout.contains("did_tap_marker               cave         result=true plugin=first"))
    #expect(run.stdout.contains("log                                       plugin=first you found cave"))
    let check = try CLI.run(["check", "my_plugins", "my_scenario.lua"], in: folder)
    #expect(check.status == 0, "\(check.stdout)")
    // luacheck with the shipped .luacheckrc, as is: a script beside it gets the script globals.
    try FileManager.default.copyItem(
      at: CLI.root.appendingPathComponent(".luacheckrc"), to: folder.appendingPathComponent(".luacheckrc"))
    let luacheck = try CLI.shell("luacheck --no-color .", in: folder)
    #expect(luacheck.status == 0, "\(luacheck.output)")

    // The tutorial's edit: return false instead of true; the second expectation then fails.
    let plugin = folder.appendingPathComponent("my_plugins/first.lua")
    let edited = try String(contentsOf: plugin, encoding: .utf8).replacingOccurrences(
      of: "return true", with: "return false")
    try Data(edited.utf8).write(to: plugin)
    let after = try CLI.run(["run", "my_scenario.lua", "--budget", "2000"], in: folder)
    #expect(after.status == 1)
    #expect(after.stderr.contains("expectation failed: my_scenario.lua:14: the secret tap was handled"))
  }
}
