import Foundation
import Testing

/// `waymark run` prints every plugin_error and warning on standard error as one line
/// (plugin, handler, file:line, message) whatever `--trace` says; `--strict` makes them fail.
@Suite struct PluginErrorReportingTests {
  static let buggy = """
    local p = { name = "buggy" }
    function p.did_tap_marker(map, marker)
      local x = nil
      return x.field
    end
    return p
    """

  func folder(script: String) throws -> URL {
    let folder = try CLI.temporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("plugins"), withIntermediateDirectories: true)
    try Data(Self.buggy.utf8).write(to: folder.appendingPathComponent("plugins/buggy.lua"))
    try Data(script.utf8).write(to: folder.appendingPathComponent("tap.lua"))
    return folder
  }

  static let sixTaps = """
    local map = waymark.map{ plugins = { "plugins" } }
    local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
    for _ = 1, 6 do map:tap(m) end
    """

  @Test func everyPluginErrorIsOneLineOnStandardErrorEvenWithoutATrace() throws {
    let folder = try folder(script: Self.sixTaps)
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["run", "tap.lua", "--trace", "none"], in: folder)
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 6, "\(result.stderr)")
    #expect(
      lines.first == "plugin_error: buggy did_tap_marker: plugins/buggy.lua:4: attempt to index a nil value (local 'x')"
    )
    #expect(lines.last?.contains("buggy disabled after 5 consecutive errors") == true)
  }

  @Test func strictMakesAPluginErrorExitOne() throws {
    let folder = try folder(script: Self.sixTaps)
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["run", "tap.lua", "--trace", "none", "--strict"], in: folder)
    #expect(result.status == 1)
    #expect(result.stderr.hasSuffix("6 plugin error(s) and warning(s) (--strict)\n"))
  }

  @Test func strictAcceptsTheErrorsAScriptExpects() throws {
    let folder = try folder(
      script: """
        local map = waymark.map{ plugins = { "plugins" } }
        local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
        expect_plugin_error("attempt to index a nil value")
        map:tap(m)
        """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["run", "tap.lua", "--trace", "none", "--strict"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("plugin_error: buggy did_tap_marker"))
  }
}
