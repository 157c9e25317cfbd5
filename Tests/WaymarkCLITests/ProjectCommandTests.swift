import Foundation
import Testing

/// The commands take a project's `waymark.lua` (docs/projects.md): its plugins and test
/// paths as defaults the command line overrides, and a mistake in it as exit 3 naming it.
@Suite struct ProjectCommandTests {
  /// A project whose plugin `hello` logs in its setup, with a scenario in `scenarios/` and a
  /// test in `checks/`.
  func project(_ file: String) throws -> URL {
    let folder = try CLI.temporaryFolder()
    let files = [
      "waymark.lua": file,
      "plugins/hello.lua": "return { name = 'hello', setup = function(map) print('hello from the project') end }",
      "other/bye.lua": "return { name = 'bye', setup = function(map) print('bye from the flag') end }",
      "scenarios/demo.lua": "local map = waymark.map{}\n",
      "checks/one_test.lua": "local map = waymark.map{}\nexpect(true, 'fine')\n",
    ]
    for (name, text) in files {
      let url = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return folder
  }

  @Test("waymark run loads the project's plugins; --plugins wins over them")
  func runUsesTheProject() throws {
    let folder = try project("return { plugins = 'plugins' }")
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try CLI.run(["run", "scenarios/demo.lua"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("hello from the project"))
    let flagged = try CLI.run(["run", "scenarios/demo.lua", "--plugins", "other"], in: folder)
    #expect(flagged.stdout.contains("bye from the flag"))
    #expect(!flagged.stdout.contains("hello from the project"))
  }

  @Test("waymark test with no PATH runs the project's test paths")
  func testUsesTheProject() throws {
    let folder = try project("return { test = { paths = { 'checks' } } }")
    defer { try? FileManager.default.removeItem(at: folder) }
    let test = try CLI.run(["test"], in: folder)
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    #expect(test.stdout.contains("checks/one_test.lua"))
    #expect(test.stdout.contains("1 passed, 0 failed"))
  }

  @Test("A mistake in the project file is exit 3 naming the file, the line and the key")
  func brokenProject() throws {
    let folder = try project("return {\n  plugins = 'plugins',\n  setings = {},\n}\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.standardizedFileURL.appendingPathComponent("waymark.lua").path
    for arguments in [["run", "scenarios/demo.lua"], ["test"]] {
      let result = try CLI.run(arguments, in: folder)
      #expect(result.status == 3, "\(arguments)")
      #expect(result.stderr.contains("\(file):3: unknown key 'setings'; did you mean settings?"), "\(result.stderr)")
    }
  }

  @Test("Local time is the same whatever the machine's time zone (TZ)")
  func localTimeIgnoresTheMachine() throws {
    let folder = try project("return { clock = { start = '2025-06-02T09:00:00', zone = 'Australia/Melbourne' } }")
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("scenarios/time.lua")
    try "local map = waymark.map{}\nprint(os.time(), os.date('%c %Z'), os.date('!%c'))\n".write(
      to: script, atomically: true, encoding: .utf8)
    let outputs = try ["UTC", "America/New_York", "Pacific/Chatham", "Asia/Kolkata"].map { zone in
      try CLI.run(["run", "scenarios/time.lua", "--trace", "json"], in: folder, environment: ["TZ": zone]).stdout
    }
    #expect(
      outputs[0].contains(#"1748818800\tMon Jun  2 09:00:00 2025 AEST\tSun Jun  1 23:00:00 2025"#), "\(outputs[0])")
    #expect(Set(outputs).count == 1, "\(outputs)")
  }
}
