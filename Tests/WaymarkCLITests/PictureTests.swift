import Foundation
import Synchronization
import Testing
import WaymarkCore
import WaymarkRender
import WaymarkScenarios
import WaymarkScripting

/// Pictures and replays from the command line (docs/pictures.md): `--snapshots`, `--html`,
/// and the golden picture of every demo's final state.
@Suite struct PictureTests {
  static let golden = CLI.root.appendingPathComponent("Tests/WaymarkCLITests/Golden")

  func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-pictures-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Every demo's final state, byte for byte: `<demo>.svg`, and `<demo>.N.svg` for its Nth
  /// map when it makes several. Re-record with `WAYMARK_RECORD=1 swift test --filter PictureTests`.
  @Test(arguments: DemoTests.demos)
  func theFinalStateOfEveryDemoIsItsGoldenPicture(demo: String) throws {
    let pictures = Mutex<[String]>([])
    var options = ScriptOptions()
    options.plugins.timeBudget = .seconds(2)
    options.mapFinished = { map in
      let svg = SVGRenderer().svg(of: map)
      pictures.withLock { $0.append(svg) }
    }
    let outcome = ScriptRunner.run(CLI.root.appendingPathComponent("scripts/\(demo).lua").path, options: options)
    #expect(outcome.error == nil && outcome.failures.isEmpty)
    let drawn = pictures.withLock { $0 }
    #expect(!drawn.isEmpty)
    for (index, svg) in drawn.enumerated() {
      let file = Self.golden.appendingPathComponent(index == 0 ? "\(demo).svg" : "\(demo).\(index + 1).svg")
      if ProcessInfo.processInfo.environment["WAYMARK_RECORD"] == "1" {
        try Data(svg.utf8).write(to: file)
        continue
      }
      let expected = try String(contentsOf: file, encoding: .utf8)
      #expect(
        svg == expected, "\(demo): the picture differs from Golden/\(file.lastPathComponent); re-record if intended")
    }
  }

  @Test(arguments: DemoTests.demos)
  func picturesAndTheReplayLeaveEveryGoldenTraceAsItWas(demo: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run([
      "run", "scripts/\(demo).lua", "--trace", "json", "--budget", "2000", "--snapshots", folder.path + "/svg",
      "--html", folder.appendingPathComponent("replay.html").path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let expected = try String(contentsOf: Self.golden.appendingPathComponent("\(demo).jsonl"), encoding: .utf8)
    #expect(result.stdout == expected, "\(demo): observing the run changed its trace")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("replay.html").path))
  }

  @Test func snapshotsAreNamedByNumberTimeAndReason() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["run", "scripts/marker_events.lua", "--trace", "none", "--snapshots", folder.path])
    #expect(result.status == 0, "\(result.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    // The new map goes idle at 0 (R53), so its first picture is of the start.
    #expect(names == ["0001-0.000-idle.svg", "0002-3.250-idle.svg", "0003-6.500-idle.svg", "0004-6.517-idle.svg"])
    let second = try String(contentsOf: folder.appendingPathComponent(names[2]), encoding: .utf8)
    #expect(second.contains("data-t=\"6.5\"") && second.contains("data-kind=\"window\""))
  }

  @Test func theCityGuidesReplayIsOneFileUnderAMegabyte() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("city_guide.html")
    let result = try CLI.run(["run", "scripts/city_guide.lua", "--trace", "none", "--html", file.path])
    #expect(result.status == 0, "\(result.stderr)")
    let html = try String(contentsOf: file, encoding: .utf8)
    #expect(html.utf8.count < 1 << 20)
    #expect(html.hasPrefix("<!doctype html>") && html.contains("window.waymarkReplay"))
  }

  @Test func foldersAndFilesThatCannotBeWrittenAreNamed() throws {
    let blocker = try temporaryFolder().appendingPathComponent("file")
    try Data("x".utf8).write(to: blocker)
    let snapshots = try CLI.run(["run", "scripts/fit_bounds.lua", "--snapshots", blocker.path + "/pictures"])
    #expect(snapshots.status == 3)
    #expect(snapshots.stderr.contains("--snapshots \(blocker.path)/pictures: cannot create the folder"))
    let html = try CLI.run(["run", "scripts/fit_bounds.lua", "--trace", "none", "--html", "/nonexistent/replay.html"])
    #expect(html.status == 3)
    #expect(html.stderr.contains("--html: cannot write /nonexistent/replay.html: No such file or directory"))
    let empty = try CLI.run(["run", "scripts/fit_bounds.lua", "--html", ""])
    #expect(empty.status == 2 && empty.stderr.contains("--html needs a file name"))
  }

  @Test func helpListsThePictureOptions() throws {
    let help = try CLI.run(["run", "--help"])
    #expect(help.stdout.contains("--snapshots DIR") && help.stdout.contains("--html FILE"))
  }
}
