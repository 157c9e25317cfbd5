import Foundation
import Testing

/// Every `waymark ...` command of the README's code blocks runs as written from a copy of the
/// repository (with the tutorial's files saved where the tutorial says), and exits 0: the
/// example suite in `tests/` and the `plugins/shop` plugin it uses ship with the repository.
@Suite struct ReadmeCommandTests {
  /// The commands of the README's `sh` and `yaml` blocks, as argument lists after `waymark`
  /// (`swift run waymark ...`, `.build/release/waymark ...`; comments dropped; the CI matrix's
  /// shard as its first job). `serve` and `run --watch` run until stopped: ServeCommandTests
  /// and WatchTests drive them.
  static func commands() -> [[String]] {
    let lines = (ReadmeTests.blocks("sh") + ReadmeTests.blocks("yaml")).flatMap { $0.split(separator: "\n") }
    return lines.compactMap { line -> [String]? in
      guard let start = line.range(of: #"(^|[ /])waymark "#, options: .regularExpression) else { return nil }
      let command = line[start.upperBound...].split(separator: "#", maxSplits: 1).first ?? ""
      let words = command.replacingOccurrences(of: "${{ matrix.shard }}", with: "1").split(separator: " ").map(
        String.init)
      return words.first == "serve" || words.contains("--watch") ? nil : words
    }
  }

  @Test func theCommandsAreTheOnesTheReadmeShows() {
    let commands = Self.commands().map { $0.joined(separator: " ") }
    for expected in [
      "init my_map", "run scripts/marker_events.lua", "run my_scenario.lua", "repl my_scenario.lua", "test tests",
      "test tests --golden tests/golden",
      "fuzz tests/shop_test.lua --plugins plugins/shop --seed 3 --out fuzz-failures",
      "test tests --golden tests/golden --shard 1/4 --junit junit-1.xml",
    ] {
      #expect(commands.contains(expected), "\(expected) in \(commands)")
    }
  }

  @Test func everyReadmeCommandRunsFromACopyOfTheRepository() throws {
    let copy = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: copy) }
    let skipped: Set<String> = [".build", ".git", ".swiftpm"]
    for entry in try FileManager.default.contentsOfDirectory(atPath: CLI.root.path) where !skipped.contains(entry) {
      try FileManager.default.copyItem(
        at: CLI.root.appendingPathComponent(entry), to: copy.appendingPathComponent(entry))
    }
    try ReadmeTests.saveTutorialFiles(in: copy)
    for arguments in Self.commands() {
      let result = try CLI.run(arguments, in: copy)
      #expect(result.status == 0, "waymark \(arguments.joined(separator: " ")): \(result.stderr)")
    }
    for written in ["marker_events.html", "pictures", "report.xml", "junit-1.xml", "coverage.info"] {
      #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent(written).path), "\(written)")
    }
  }
}
