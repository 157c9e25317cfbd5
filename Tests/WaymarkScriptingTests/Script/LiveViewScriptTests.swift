import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// R34-R36 from a script: the table a plugin returned or assigned is the view, drawn anew at
/// the next frame while the marker tracks changes, a snapshot otherwise.
@Suite struct LiveViewScriptTests {
  /// A plugin whose custom window is its table `view`, which a tap on the map changes.
  static let windowPlugin = """
    ---@type Plugin
    local plugin = { name = "live" }
    local view = { vstack = { { text = "Before", style = "title" } }, padding = 4 }
    function plugin.marker_info_window(map, marker)
      if marker.id == "w" then return view end
    end
    function plugin.did_tap_at_coordinate(map, coordinate)
      view.vstack[1].text = "After, a longer text"
    end
    return plugin
    """

  private func run(_ script: String, plugins: [String: String] = ["live.lua": windowPlugin]) throws -> ScriptOutcome {
    let (outcome, _) = try ScriptRunnerTests().run(script, plugins: plugins)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    return outcome
  }

  @Test("R34: a window shown again reads its table as it is then")
  func aWindowShownAgainReadsItsTable() throws {
    let outcome = try run(
      """
      local map = waymark.map{ plugins = { "plugins" } }
      local m = map:add_marker{ id = "w", position = { lat = 0, lng = 0 } }
      map.selected_marker = m
      map:settle()
      local width = map.info_window.width
      map:tap({ x = 10, y = 10 })  -- the plugin changes its table (and the tap closes the window)
      map.selected_marker = m       -- shown again: the handler returns the same, changed table
      expect_eq(map.info_window.content.vstack[1].text, "After, a longer text")
      local shown = map.info_window.width
      expect(shown > width)
      """)
    #expect(!outcome.records.contains { $0.event == .viewRedrawn }, "nothing tracked")
  }

  @Test("R34: with tracks_info_window_changes off the window is a snapshot; turning it on redraws it at once")
  func untrackedWindowsAreSnapshotsUntilTrackingTurnsOn() throws {
    let plugin = """
      ---@type Plugin
      local plugin = { name = "live" }
      local view = { text = "Before" }
      function plugin.marker_info_window(map, marker) return view end
      function plugin.did_long_press_at_coordinate(map, coordinate) view.text = "After, a much longer text" end
      return plugin
      """
    let outcome = try run(
      """
      local map = waymark.map{ plugins = { "plugins" } }
      local m = map:add_marker{ id = "w", position = { lat = 0, lng = 0 } }
      map.selected_marker = m
      local width = map.info_window.width
      map:long_press({ x = 10, y = 10 })
      map:advance(1)
      map:settle()
      expect_eq(map.info_window.content.text, "Before", "a snapshot: never redrawn")
      expect_eq(map.info_window.width, width)
      m.tracks_info_window_changes = true
      expect_eq(map.info_window.content.text, "After, a much longer text", "redrawn when tracking turns on")
      expect(map.info_window.width > width, "and its frame follows")
      """, plugins: ["live.lua": plugin])
    let redrawn = outcome.records.filter { $0.event == .viewRedrawn }
    #expect(redrawn.count == 1)
    #expect(redrawn.first?["view"] == .string("info_window"))
  }

  @Test("R34: a tracked window (custom contents too) follows its table frame by frame; settle draws the owed frame")
  func trackedWindowsFollowTheirTable() throws {
    let plugin = """
      ---@type Plugin
      local plugin = { name = "live" }
      local view = { text = "0" }
      function plugin.marker_info_contents(map, marker) return view end
      function plugin.did_long_press_at_coordinate(map, coordinate) view.text = view.text .. " more text" end
      return plugin
      """
    let outcome = try run(
      """
      local map = waymark.map{ plugins = { "plugins" } }
      local m = map:add_marker{ id = "c", position = { lat = 0, lng = 0 }, tracks_info_window_changes = true }
      map.selected_marker = m
      map:settle()
      expect_eq(map.info_window.kind, "contents")
      local width = map.info_window.width
      map:long_press({ x = 10, y = 10 })
      expect_eq(map.info_window.content.text, "0", "not before the next frame")
      local before = map.time
      map:settle()
      expect_eq(map.info_window.content.text, "0 more text", "settle draws the frame it is owed")
      expect(map.time > before and map.time - before <= 1 / 60 + 1e-9, "one frame later")
      expect(map.info_window.width > width)
      map:long_press({ x = 10, y = 10 })
      map:advance(0.1)
      expect_eq(map.info_window.content.text, "0 more text more text", "advance draws frames too")
      """, plugins: ["live.lua": plugin])
    #expect(outcome.records.filter { $0.event == .viewRedrawn }.count == 2)
  }

  @Test("R36: an icon_view table is the view: its changes show while tracks_view_changes is on, never after")
  func iconViewTablesAreLiveWhileTracked() throws {
    let outcome = try run(
      """
      local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 10 } }
      local view = { name = "badge", width = 20, height = 20 }
      local m = map:add_marker{ id = "v", position = { lat = 0, lng = 0 }, icon_view = view }
      local centre = { x = map.size.width / 2, y = map.size.height / 2 }
      expect(m.tracks_view_changes, "on by default (R1)")
      view.width, view.height = 60, 80
      expect_eq(m.icon_view.width, 20, "not before the next frame")
      map:advance(1 / 60)
      expect_eq(m.icon_view.width, 60, "redrawn: the marker's field")
      expect_eq(m.icon_view.height, 80)
      map:tap({ x = centre.x + 25, y = centre.y - 70 })
      expect(map.selected_marker == m, "the hit box grew with the view")
      m.tracks_view_changes = false
      view.name, view.width = "frozen", 10
      map:advance(1)
      map:settle()
      expect_eq(m.icon_view.width, 60, "a snapshot once tracking is off")
      expect_eq(m.icon_view.name, "badge")
      view.width = -3
      m.tracks_view_changes = true
      expect_eq(m.icon_view.width, 60, "a broken view keeps its last drawing")
      """, plugins: [:])
    #expect(outcome.records.filter { $0.event == .viewRedrawn }.count == 1)
    let warnings = outcome.records.filter { $0.event == .warning }.compactMap(\.message)
    #expect(warnings.contains { $0.contains("icon view of marker v") && $0.contains("-3") }, "\(warnings)")
  }

  @Test("R36: redraws are counted in the profile, one a frame while a view is tracked")
  func redrawsAreCountedInTheProfile() throws {
    var options = ScriptOptions.forTests
    let profile = PluginProfile()
    options.plugins.profile = profile
    let (outcome, _) = try ScriptRunnerTests().run(
      """
      local map = waymark.map{}
      local view = { name = "badge", width = 20, height = 20 }
      map:add_marker{ id = "v", position = { lat = 0, lng = 0 }, icon_view = view }
      map:advance(1)
      """, options: options)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    let row = try #require(profile.report.first { $0.handler == "icon_view redraws" })
    #expect(row.plugin == "script")
    #expect(row.calls == 60, "one redraw a frame for a second at 60 frames a second")
  }
}
