import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `map:snapshot(path?)`, the run's snapshot folder and replay, and `map.info_window`'s frame.
@Suite struct SnapshotTests {
  func run(_ script: String, plugins: [String: String] = [:], options: ScriptOptions = .forTests) throws
    -> (ScriptOutcome, PluginFolder)
  {
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    for (name, source) in plugins { try folder.write("plugins/" + name, source) }
    try folder.write("demo.lua", script)
    return (ScriptRunner.run(folder.file("demo.lua"), options: options), folder)
  }

  static let tour = """
    local map = waymark.map{ camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 4 } }
    local m = map:add_marker{ id = "melbourne", position = { lat = -37.81969, lng = 144.966085 }, title = "M" }
    map:animate({ zoom = 6 }, { duration = 1 })
    map:settle()
    """

  @Test func aSnapshotWithAPathWritesThereAndReturnsIt() throws {
    let (outcome, _) = try run(
      Self.tour
        + """
        local path = map:snapshot(SVG)
        expect_eq(path, SVG)
        expect_eq(map:snapshot(), nil, "no folder: nothing written")
        """.replacingOccurrences(of: "SVG", with: "\"\(NSTemporaryDirectory())waymark-snapshot-test.svg\""))
    #expect(outcome.error == nil && outcome.failures.isEmpty, "\(outcome.error ?? "") \(outcome.failures)")
    let svg = try String(contentsOfFile: NSTemporaryDirectory() + "waymark-snapshot-test.svg", encoding: .utf8)
    #expect(svg.contains("<g class=\"marker\" data-id=\"melbourne\"") && svg.contains("data-zoom=\"6\""))
  }

  @Test func theSnapshotFolderGetsEveryIdleCameraAndEverySnapshotNumbered() throws {
    let pictures = try PluginFolder()
    var options = ScriptOptions.forTests
    options.snapshotFolder = pictures.path
    let (outcome, _) = try run(
      Self.tour + """
        map:advance(0.25)
        local path = map:snapshot()
        expect(path:find("0002%-1%.500%-snapshot%.svg$"), path)
        map:animate({ zoom = 5 }, { duration = 0.5 })
        map:settle()
        """, options: options)
    #expect(outcome.error == nil && outcome.failures.isEmpty, "\(outcome.error ?? "") \(outcome.failures)")
    let names = try FileManager.default.contentsOfDirectory(atPath: pictures.path).sorted()
    #expect(names == ["0001-1.000-idle.svg", "0002-1.500-snapshot.svg", "0003-2.000-idle.svg"])
  }

  @Test func recordingPicturesLeavesTheTraceAsItWas() throws {
    let pictures = try PluginFolder()
    var options = ScriptOptions.forTests
    options.snapshotFolder = pictures.path
    options.recordsReplay = true
    let (observed, _) = try run(Self.tour + "map:tap(m)\nmap:settle()", options: options)
    let (plain, _) = try run(Self.tour + "map:tap(m)\nmap:settle()")
    #expect(observed.records == plain.records)
    #expect(observed.replay?.scenes.count == 1 && plain.replay == nil)
  }

  @Test func pluginsCannotWriteSnapshots() throws {
    let (outcome, _) = try run(
      Self.tour.replacingOccurrences(of: "zoom = 4 }", with: "zoom = 4 }, plugins = { \"plugins\" }") + "map:tap(m)",
      plugins: ["painter.lua": "return { did_tap_marker = function(map) map:snapshot('/tmp/x.svg') end }"])
    let error = try #require(outcome.records.first { $0.event == .pluginError })
    #expect(error.message?.contains("snapshot cannot be called from a plugin") == true)
  }

  @Test func aSnapshotThatCannotBeWrittenSaysWhereAndWhy() throws {
    let (outcome, _) = try run(Self.tour + "map:snapshot('/nonexistent-folder/x.svg')")
    #expect(
      outcome.error?.contains("snapshot: cannot write /nonexistent-folder/x.svg: No such file or directory") == true,
      "\(outcome.error ?? "")")
  }

  /// The pictures of a run (idle ones and snapshots) are capped in bytes, as its logs are: the
  /// snapshot that would pass the cap is not written and raises at the script's line.
  @Test func picturesStopAtTheRunsCapInBytes() throws {
    let pictures = try PluginFolder()
    var options = ScriptOptions.forTests
    options.snapshotFolder = pictures.path
    let (one, _) = try run(Self.tour + "map:snapshot()", options: options)
    #expect(one.error == nil)
    let size =
      try FileManager.default.contentsOfDirectory(atPath: pictures.path).map {
        try Data(contentsOf: URL(fileURLWithPath: pictures.file($0))).count
      }.max() ?? 0
    let capped = try PluginFolder()
    options.snapshotFolder = capped.path
    options.snapshotBytes = size * 5 / 2  // room for two pictures, not three
    let (outcome, _) = try run(
      Self.tour + "\nfor i = 1, 100 do map:snapshot() end", options: options)
    let error = try #require(outcome.error)
    #expect(
      error.contains("snapshot: not written: this picture (") && error.contains("(ScriptOptions.snapshotBytes)"),
      "\(error)")
    #expect(error.contains("demo.lua:5:"), "the script's line: \(error)")
    let written = try FileManager.default.contentsOfDirectory(atPath: capped.path)
    #expect(written.count == 2, "\(written)")
    let total = try written.reduce(0) { $0 + (try Data(contentsOf: URL(fileURLWithPath: capped.file($1))).count) }
    #expect(total <= options.snapshotBytes)
  }

  @Test func theInfoWindowHasItsFrameInPoints() throws {
    let (outcome, _) = try run(
      """
      local map = waymark.map{ camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 4 } }
      local m = map:add_marker{ id = "m", position = { lat = -37.81969, lng = 144.966085 }, title = "Melbourne" }
      map:tap(m)
      local w = map.info_window
      local p = map:point_for(m.position)
      -- The default window sits centred over the pin, its tail's tip on the pin's top (43 points up).
      expect_near(w.x + w.width / 2, p.x, 1e-9)
      expect_near(w.y + w.height, p.y - 43, 1e-9)
      expect(w.width > 50 and w.height > 30, "a title's size")
      """)
    #expect(outcome.error == nil && outcome.failures.isEmpty, "\(outcome.error ?? "") \(outcome.failures)")
  }
}
