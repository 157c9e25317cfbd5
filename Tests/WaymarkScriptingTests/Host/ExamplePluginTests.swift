import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// The example plugins of the repository (`plugins/`) load cleanly and S1 behaves as the
/// sample says through a real plugin file.
@Suite struct ExamplePluginTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  @Test func everyExamplePluginPassesCheck() throws {
    let folders =
      PluginFiles.pluginFiles(in: Self.root + "/plugins").isEmpty
      ? ((try? FileManager.default.contentsOfDirectory(atPath: Self.root + "/plugins")) ?? []).sorted().map {
        Self.root + "/plugins/" + $0
      }.filter(PluginFiles.isDirectory) : [Self.root + "/plugins"]
    try #require(!folders.isEmpty)
    let diagnostics = PluginHost.check(folders)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
  }

  @Test func markerEventsPluginPlaysS1() throws {
    let f = try PluginFixture([:], plus: [Self.root + "/plugins/marker_events/marker_events.lua"])
    try f.map.tap(f.sydney)  // animation, no selection
    #expect(f.map.selectedMarker == nil)
    try f.map.settle()
    try f.map.tap(f.melbourne)  // not selected yet: default selection with the custom window
    #expect(f.map.selectedMarker === f.melbourne)
    #expect(f.map.infoWindow?.kindName == "window")
    try f.map.settle()
    try f.map.tap(f.melbourne)  // handled: the window stays
    #expect(f.records(.callback(.didTapMarker)).last?.result == .bool(true))
    #expect(f.map.infoWindow?.marker === f.melbourne)
    #expect(f.errors.isEmpty)
  }
}
