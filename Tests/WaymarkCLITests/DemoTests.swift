import Foundation
import Testing

/// Every demo in scripts/ runs to its end with its expectations met, and its JSON trace is
/// byte for byte its golden trace, through the same mechanism users have: `waymark test
/// scripts/*.lua --golden Tests/WaymarkCLITests/Golden`. Re-record with `WAYMARK_RECORD=1
/// swift test --filter DemoTests` (which adds `--update`) and read the diff of
/// Tests/WaymarkCLITests/Golden/ before committing.
@Suite struct DemoTests {
  static let demos: [String] = {
    let folder = CLI.root.appendingPathComponent("scripts")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }.sorted()
  }()

  @Test func everyDemoHasAGoldenTrace() {
    #expect(Self.demos.count >= 11)
    let golden = CLI.root.appendingPathComponent("Tests/WaymarkCLITests/Golden")
    for demo in Self.demos {
      #expect(FileManager.default.fileExists(atPath: golden.appendingPathComponent("\(demo).jsonl").path), "\(demo)")
    }
  }

  @Test func everyDemoMatchesItsGoldenTrace() throws {
    let record = ProcessInfo.processInfo.environment["WAYMARK_RECORD"] == "1"
    // A generous handler budget: a loaded machine must not turn a stall into a plugin_error.
    let result = try CLI.run(
      ["test"] + Self.demos.map { "scripts/\($0).lua" } + [
        "--golden", "Tests/WaymarkCLITests/Golden", "--budget", "2000",
      ]
        + (record ? ["--update"] : []))
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.hasSuffix("\n\(Self.demos.count) passed, 0 failed\n"), "\(result.stdout)")
  }

  @Test func aDemoGivesTheSameBytesEveryRun() throws {
    let first = try CLI.run(["run", "scripts/camera_animation.lua", "--trace", "json"])
    let second = try CLI.run(["run", "scripts/camera_animation.lua", "--trace", "json"])
    #expect(first.stdout.count > 100_000)
    #expect(first.stdout == second.stdout)
  }

  @Test func theMarkerEventsDemoReplaysScenarioS1() throws {
    let result = try CLI.run(["run", "scripts/marker_events.lua", "--trace", "json"])
    let events = result.stdout.split(separator: "\n").filter {
      $0.contains("did_tap") || $0.contains("marker_info_window") || $0.contains("info_window_")
        || $0.contains("did_close")
    }.map { line in line.split(separator: ",").prefix(3).joined(separator: ",") }
    #expect(
      events == [
        #"{"t":0.25,"event":"did_tap_marker","marker":"sydney""#,
        #"{"t":3.5,"event":"did_tap_marker","marker":"melbourne""#,
        #"{"t":3.5,"event":"marker_info_window","marker":"melbourne""#,
        #"{"t":3.5,"event":"info_window_shown","marker":"melbourne""#,
        #"{"t":6.5,"event":"did_tap_marker","marker":"melbourne""#,
        // The second tap on Melbourne animates to the camera the map already has: one frame (R23).
        #"{"t":6.516667,"event":"did_tap_at_coordinate","coordinate":{"lat":-38.388083"#,
        #"{"t":6.516667,"event":"info_window_hidden","marker":"melbourne"}"#,
        #"{"t":6.516667,"event":"did_close_info_window","marker":"melbourne"}"#,
      ])
  }
}
