import Foundation
import Testing

/// `waymark init [DIR]`: a project that checks clean at once, and that never overwrites.
@Suite struct InitCommandTests {
  /// Every file `waymark init` writes.
  static let files = [
    "waymark.lua", "plugins/places/places.lua", "scripts/demo.lua", "tests/places_test.lua", "types/waymark.d.lua",
    "types/scripts/waymark-scripts.d.lua", ".luarc.json", "plugins/.luarc.json", ".luacheckrc",
    ".github/workflows/waymark.yml",
  ]

  @Test func aNewProjectChecksCleanAndItsScenarioRuns() throws {
    let parent = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: parent) }
    let result = try CLI.run(["init", "my_map"], in: parent)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix(Self.files.map { "wrote my_map/\($0)\n" }.joined()))
    let project = parent.appendingPathComponent("my_map")

    let check = try CLI.run(["check"], in: project)
    #expect(check.status == 0 && check.stdout.isEmpty, "\(check.stdout)")
    #expect(check.stderr.contains("checked 3 file(s): no problems"), "plugins/, scripts/ and tests/")
    let luacheck = try CLI.shell("luacheck --no-color .", in: project)
    #expect(luacheck.status == 0, "\(luacheck.output)")
    #expect(luacheck.output.contains("0 warnings / 0 errors in 4 files"), "\(luacheck.output)")
    // The scenario's plugin answers: the tower's window, the garden's tap handled (R6).
    let run = try CLI.run(["run", "scripts/demo.lua", "--budget", "2000"], in: project)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("marker_info_window           tower        result=content plugin=places"))
    #expect(run.stdout.contains("did_tap_marker               garden       result=true plugin=places"))
  }

  /// The project file shows every key commented out; uncommented (with the folders it says
  /// to make), each is valid: the tests still pass, and a script meets the modules, the data,
  /// the clock and the plugin.
  @Test func everyKeyTheProjectFileShowsWorksUncommented() throws {
    let project = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: project) }
    #expect(try CLI.run(["init"], in: project).status == 0)
    let file = project.appendingPathComponent("waymark.lua")
    let text = try String(contentsOf: file, encoding: .utf8)
    let commented = text.split(separator: "\n").filter { $0.hasPrefix("  -- ") && $0.contains(" = ") }
    #expect(
      commented.map { $0.dropFirst(5).prefix { $0 != " " } } == ["plugins", "modules", "data", "settings", "clock"])
    try text.replacingOccurrences(of: "\n  -- ", with: "\n  ").write(to: file, atomically: true, encoding: .utf8)
    for folder in ["lib", "data"] {
      try FileManager.default.createDirectory(
        at: project.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try "return { greeting = 'hi' }\n".write(
      to: project.appendingPathComponent("lib/helper.lua"), atomically: true, encoding: .utf8)
    try "name\nEiffel\n".write(to: project.appendingPathComponent("data/places.csv"), atomically: true, encoding: .utf8)
    try """
    local map = waymark.map{ camera = { target = { lat = 48.8584, lng = 2.2945 }, zoom = 14 } }
    print(require("helper").greeting, waymark.data.csv("data/places.csv")[1].name, os.date("%H:%M %Z"))
    """.write(to: project.appendingPathComponent("scripts/keys.lua"), atomically: true, encoding: .utf8)
    let tests = try CLI.run(["test"], in: project)
    #expect(tests.status == 0, "\(tests.stdout)\(tests.stderr)")
    let run = try CLI.run(["run", "scripts/keys.lua"], in: project)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("hi\\tEiffel\\t09:00 CEST"), "\(run.stdout)")
    #expect(run.stdout.contains("plugin_loaded") && run.stdout.contains("plugin=places"), "the project's plugin")
  }

  @Test func theEditorAndCISettingsAreTheGeneratedOnes() throws {
    let project = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: project) }
    #expect(try CLI.run(["init"], in: project).status == 0, "the current folder by default")
    func text(_ path: String) throws -> String {
      try String(contentsOf: project.appendingPathComponent(path), encoding: .utf8)
    }
    #expect(try text("types/waymark.d.lua") == CLI.run(["types"]).stdout)
    #expect(try text("types/scripts/waymark-scripts.d.lua") == CLI.run(["types", "--scripts"]).stdout)
    #expect(try text(".luacheckrc") == CLI.run(["types", "--luacheck"]).stdout)
    let luarc = try text(".luarc.json")
    #expect(luarc.contains(#""workspace.library": ["types/waymark.d.lua", "types/scripts"]"#))
    #expect(
      luarc.contains(#""io": "disable""#) && luarc.contains(#""describe", "context", "insulate", "expose", "it""#))
    let plugins = try text("plugins/.luarc.json")
    #expect(plugins.contains(#""workspace.library": ["../types/waymark.d.lua"]"#) && !plugins.contains("describe"))
    let workflow = try text(".github/workflows/waymark.yml")
    #expect(workflow.contains("shard: [1, 2, 3, 4]"))
    #expect(workflow.contains("waymark test tests --shard ${{ matrix.shard }}/4 --junit junit-${{ matrix.shard }}.xml"))
  }

  @Test func initRefusesToOverwriteAndNamesEveryFileInTheWay() throws {
    let project = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: project) }
    let mine = "-- my own\n"
    for path in [".luacheckrc", "tests/places_test.lua"] {
      let file = project.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(mine.utf8).write(to: file)
    }
    let result = try CLI.run(["init", project.path])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains("would overwrite \(project.path)/tests/places_test.lua, \(project.path)/.luacheckrc;"))
    #expect(result.stderr.contains("nothing written"))
    #expect(try String(contentsOf: project.appendingPathComponent(".luacheckrc"), encoding: .utf8) == mine)
    for path in Self.files where path != ".luacheckrc" && path != "tests/places_test.lua" {
      #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(path).path), "\(path)")
    }
  }

  /// A dangling symbolic link where a file goes, or a link where a folder goes, is in the way
  /// like a file: init names them and writes nothing (it wrote half a project, then exit 3).
  @Test func linksInTheWayEvenToNothingMeanNothingIsWritten() throws {
    let project = try CLI.temporaryFolder(), elsewhere = try CLI.temporaryFolder()
    defer {
      try? FileManager.default.removeItem(at: project)
      try? FileManager.default.removeItem(at: elsewhere)
    }
    try FileManager.default.createDirectory(
      at: project.appendingPathComponent("scripts"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: project.appendingPathComponent("scripts/demo.lua").path, withDestinationPath: "/nonexistent/demo.lua")
    try FileManager.default.createSymbolicLink(
      atPath: project.appendingPathComponent("types").path, withDestinationPath: elsewhere.path)
    let result = try CLI.run(["init", project.path])
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains(
        "would overwrite \(project.path)/scripts/demo.lua (a symbolic link), \(project.path)/types (a symbolic link);"),
      "\(result.stderr)")
    #expect(result.stderr.contains("nothing written"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: project.path).sorted() == ["scripts", "types"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    #expect(result.stdout.isEmpty)
  }

  @Test func initIntoAFileIsAUsageError() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data().write(to: folder.appendingPathComponent("notes.txt"))
    let result = try CLI.run(["init", "notes.txt"], in: folder)
    #expect(result.status == 2 && result.stderr.contains("waymark init: notes.txt: a file, not a folder"))
  }
}
