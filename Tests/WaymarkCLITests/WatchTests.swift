import Foundation
import Testing

@testable import waymark

@Suite struct WatchTests {
  @Test func watchRerunsWhenAPluginChangesAndShowsWhatChanged() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugins = folder.appendingPathComponent("plugins")
    try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
    let plugin = plugins.appendingPathComponent("veto.lua")
    try Data("return { did_tap_marker = function(map, marker) return true end }\n".utf8).write(to: plugin)
    try Data(
      """
      local map = waymark.map{ plugins = { "plugins" } }
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 }, title = "M" }
      map:tap(m)
      """.utf8
    ).write(to: folder.appendingPathComponent("demo.lua"))

    let output = try watch(folder) {
      try Data("return { did_tap_marker = function(map, marker) return false end }\n".utf8).write(to: plugin)
    }
    #expect(output.contains("did_tap_marker               m            result=true plugin=veto"))
    #expect(output.contains("── run 2:"))
    #expect(output.contains("- \("   0.000")  did_tap_marker               m            result=true plugin=veto"))
    #expect(output.contains("+ \("   0.000")  did_tap_marker               m            result=false"))
    #expect(output.contains("+ \("   0.000")  info_window_shown            m            kind=default"))
  }

  @Test func watchRerunsWhenAPluginFileIsAdded() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugins = folder.appendingPathComponent("plugins")
    try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
    try Data("return {}\n".utf8).write(to: plugins.appendingPathComponent("a.lua"))
    try Data("local map = waymark.map{ plugins = { \"plugins\" } }\n".utf8).write(
      to: folder.appendingPathComponent("demo.lua"))
    let output = try watch(folder) {
      try Data("return { name = \"newcomer\" }\n".utf8).write(to: plugins.appendingPathComponent("b.lua"))
    }
    #expect(output.contains("── run 2:"))
    #expect(output.contains("+ \("   0.000")  plugin_loaded                             plugin=newcomer"))
  }

  /// Runs `waymark run demo.lua --watch` in `folder` for two runs, calling `change` once the
  /// first run is watching; returns what it printed.
  private func watch(_ folder: URL, change: () throws -> Void) throws -> String {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["run", "demo.lua", "--watch"]
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging(["WAYMARK_WATCH_MAX_RUNS": "2"]) { $1 }
    let out = folder.appendingPathComponent("out.txt"), err = folder.appendingPathComponent("err.txt")
    #expect(FileManager.default.createFile(atPath: out.path, contents: nil))
    #expect(FileManager.default.createFile(atPath: err.path, contents: nil))
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    defer {
      // SIGKILL, not terminate(): a child of the test process may inherit a signal mask that
      // blocks SIGTERM, and a watcher that did not stop would hang the suite.
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      // Foundation lets go of a Process once it has seen the child end.
      process.waitUntilExit()
    }
    // A generous bound only so that a broken watcher fails instead of hanging the suite.
    func waitFor(_ condition: () -> Bool) -> Bool {
      for _ in 0..<600 {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
      }
      return false
    }
    #expect(waitFor { ((try? String(contentsOf: err, encoding: .utf8)) ?? "").contains("watching") })
    try change()
    #expect(waitFor { !process.isRunning })
    return try String(contentsOf: out, encoding: .utf8)
  }
}
