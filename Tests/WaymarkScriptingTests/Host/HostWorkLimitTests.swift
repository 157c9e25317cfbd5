import Testing
import WaymarkCore

@testable import WaymarkScripting

/// What a plugin makes the host copy, keep or lay out is bounded by limits checked before
/// the copy (docs/plugins.md, "Limits"): a huge answer, a string referenced a hundred times,
/// a flood of prints or markers costs the host little and gives the plugin a `plugin_error`.
@Suite struct HostWorkLimitTests {
  @Test func aContentTableOfSixHundredThousandKeysIsRefusedEarly() throws {
    let configuration = PluginHost.Configuration.deterministic  // building the table takes a while
    let f = try PluginFixture.hostile("content_huge_table.lua", configuration: configuration)
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "content_huge_table", handler: "marker_info_window", line: 5)
    #expect(message.contains("content has more than"))
    #expect(f.map.infoWindow?.kindName == "default")
  }

  @Test func aPluginThatKeepsAnsweringSixHundredThousandKeysIsDisabled() throws {
    let configuration = PluginHost.Configuration.deterministic  // building the table takes a while
    let f = try PluginFixture.hostile("content_huge_table.lua", configuration: configuration)
    for _ in 0..<4 {
      try f.map.tap(f.melbourne)
      try f.map.tap(f.sydney)
    }
    #expect(f.errors.count == 6, "five refused answers, then the notice: \(f.errors.compactMap(\.message))")
    #expect(f.errors.prefix(5).allSatisfy { $0.message?.contains("content has more than") == true })
    #expect(f.errors.last?.message?.contains("disabled after 5 consecutive errors") == true)
    #expect(f.host.plugins.first?.isDisabled == true)
    #expect(f.map.selectedMarker === f.sydney && f.map.infoWindow?.kindName == "default", "the map goes on")
  }

  @Test func aHundredBigArgumentsToPrintOrLogAreNeverJoinedWhole() throws {
    let f = try PluginFixture.hostile("log_many_arguments.lua")
    try f.map.tap(f.melbourne)
    #expect(f.errors.isEmpty, "\(f.errors.compactMap(\.message))")
    #expect(f.logs.count == 2)
    let total = 100 * (8 << 20) + 99  // a hundred parts and the tabs between them
    let kept = MapView.longestLogMessage - 128
    #expect(f.logs.allSatisfy { $0 == String(repeating: "m", count: kept) + "… (\(total - kept) more bytes)" })
  }

  @Test func contentCountsEveryReferenceToAStringAgainstItsTextBudget() throws {
    let f = try PluginFixture.hostile("content_shared_string.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "content_shared_string", handler: "marker_info_window", line: 7)  // the return line
    #expect(message.contains("content has more than 65536 bytes of text"))
  }

  @Test func textIsBoundedInBytesSoCombiningMarksCannotStallLayout() throws {
    let f = try PluginFixture.hostile("content_combining_marks.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "content_combining_marks", handler: "marker_info_window", line: 5)
    #expect(message.contains("bytes of text"))
  }

  @Test func userDataOfAHundredReferencesToABigStringIsRefusedBeforeItIsCopied() throws {
    let f = try PluginFixture.hostile("user_data_shared_string.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "user_data_shared_string", handler: "did_tap_marker", line: 6)
    #expect(message.contains("the value takes more than 8 MiB"))
    #expect(f.melbourne.userData == nil)
  }

  @Test func hugeTitlesAreRefusedBeforeTheyAreCopied() throws {
    let f = try PluginFixture.hostile("huge_titles.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "huge_titles", handler: "did_tap_marker", line: 4)
    #expect(message.contains("marker.title: a string of 16777216 bytes is longer than 16384 bytes"))
    #expect(f.map.markers.count == 2)
  }

  @Test func aFloodOfPrintsEndsAtTheLogBudget() throws {
    var configuration = PluginHost.Configuration.forTests
    configuration.hostLimits.logBytes = 1 << 20
    let f = try PluginFixture.hostile("log_flood.lua", configuration: configuration)
    try f.map.moveCamera(.zoomIn)
    let message = try #require(f.errors.first?.message)
    #expect(message.contains("log_flood.lua:5: this plugin has written 1 MiB of log text to the trace, its limit"))
    let kept = f.logs.reduce(0) { $0 + $1.utf8.count }
    #expect(kept <= 1 << 20)
    #expect(kept > (1 << 20) - (64 << 10))
  }

  @Test func aHugeMessageIsCutBeforeItIsCopied() throws {
    let f = try PluginFixture.hostile("log_huge_message.lua")
    try f.map.tap(f.melbourne)
    #expect(f.errors.isEmpty)
    #expect(f.logs.count == 2)
    for log in f.logs {
      #expect(log.utf8.count <= MapView.longestLogMessage)
      #expect(log.hasSuffix("more bytes)"))
    }
  }

  @Test func aHugeErrorMessageIsCutBeforeItIsCopied() throws {
    let f = try PluginFixture.hostile("error_huge_message.lua")
    try f.map.tap(f.melbourne)
    let message = try #require(f.errors.first?.message)
    #expect(message.utf8.count < 70 << 10)
    #expect(message.hasSuffix("more bytes)"))
  }

  @Test func aSavedStateTooBigToCarryIsDroppedWithAnError() throws {
    let configuration = PluginHost.Configuration.deterministic  // building 16 MiB takes a while
    let f = try PluginFixture(
      ["big.lua": try String(contentsOfFile: HostileCorpus.file("save_state_shared_string.lua"), encoding: .utf8)],
      configuration: configuration)
    try f.folder.write("big.lua", "return { on_reload = function(old) print('old state:', type(old)) end }")
    f.host.reloadChangedPlugins()
    let error = try #require(f.errors.first)
    #expect(error.handler == "save_state", "\(f.errors.compactMap(\.message))")
    #expect(error.message?.contains("the state to carry over was dropped") == true)
    #expect(f.logs == ["old state:\tnil"])
  }

  @Test func aFloodOfMarkersEndsAtTheObjectLimit() throws {
    var configuration = PluginHost.Configuration.deterministic  // 400 add_marker a tap
    configuration.hostLimits.objects = 1_000
    let f = try PluginFixture.hostile("marker_flood.lua", configuration: configuration)
    for _ in 0..<3 { try f.map.tap(at: Point(x: 10, y: 10)) }
    let message = try #require(f.errors.first?.message)
    #expect(message.contains("add_marker: this plugin already has 1000 markers, overlays and places on the map"))
    #expect(f.map.markers.count == 2 + 1_000)
    // Removed markers no longer count.
    for marker in f.map.markers.dropFirst(2).prefix(500) { try f.map.remove(marker) }
    let before = f.errors.count
    try f.map.tap(at: Point(x: 10, y: 10))
    #expect(f.errors.count == before)
    #expect(f.map.markers.count == 2 + 900)
  }
}
