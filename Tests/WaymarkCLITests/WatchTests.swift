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

  private func watch(_ folder: URL, change: () throws -> Void) throws -> String {
    try CLI.watch(["run", "demo.lua", "--watch"], in: folder, change: change)
  }
}
