import Foundation
import Testing

/// The command line's small things: a script from standard input, a single plugin file,
/// whole help lines, no colour where it does not belong.
@Suite struct SmallThingsTests {
  @Test func runDashReadsTheScriptFromStandardInput() throws {
    let result = try CLI.run(
      ["run", "-", "--trace", "json"],
      input: "local map = waymark.map{}\nprint(map.camera.zoom)\nexpect_eq(map.camera.zoom, 3, \"zoom\")\n")
    #expect(result.status == 1)
    #expect(result.stdout.contains(#""event":"log","message":"2.0""#), "\(result.stdout)")
    #expect(result.stderr.contains("expectation failed: stdin:3: zoom: expected 3, got 2"))
    let watched = try CLI.run(["run", "-", "--watch"], input: "")
    #expect(watched.status == 2)
    #expect(watched.stderr.contains("--watch needs a script file"))
  }

  @Test func pluginsAcceptsASingleFile() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("return { did_tap_marker = function(map, marker) print('tapped ' .. marker.id) return true end }\n".utf8)
      .write(to: folder.appendingPathComponent("one_plugin.lua"))
    try Data("return { did_tap_marker = function() print('not me') end }\n".utf8)
      .write(to: folder.appendingPathComponent("other.lua"))
    try Data(
      "local map = waymark.map{}\nmap:tap(map:add_marker{ id = 'm', position = { lat = 0, lng = 0 } })\n".utf8
    ).write(to: folder.appendingPathComponent("s.lua"))
    let result = try CLI.run(["run", "s.lua", "--plugins", "one_plugin.lua", "--trace", "json"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("tapped m"))
    #expect(!result.stdout.contains("not me"))
    let missing = try CLI.run(["run", "s.lua", "--plugins", "nope.lua"], in: folder)
    #expect(missing.status == 3)
    #expect(missing.stderr.contains("--plugins nope.lua: no such folder or .lua file"))
  }

  @Test func helpLinesAreWhole() throws {
    let help = try CLI.run(["run", "--help"])
    #expect(help.stdout.contains("ios, android or web: overrides the policy the script's waymark.map{} asks for"))
    #expect(!help.stdout.contains("overrides the script's\n"))
  }

  @Test func theTextTraceHasNoColourWhenNotATerminal() throws {
    let result = try CLI.run(["run", "scripts/drag.lua"])
    #expect(!result.stdout.contains("\u{1B}["))
    #expect(result.stdout.contains("did_drag_marker              pin          ×60 frames 0.017…1.000"))
  }
}
