import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// R7 from a script: `map.info_window` reports the window the map keeps.
@Suite struct InfoWindowTrackingScriptTests {
  @Test("R7: map.info_window keeps its frame until the window is shown again, unless the marker tracks changes")
  func infoWindowKeepsItsFrameUnlessTracking() throws {
    let (outcome, _) = try ScriptRunnerTests().run(
      """
      local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 4 } }
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 }, title = "Short" }
      map.selected_marker = m
      local width = map.info_window.width
      m.title = "A much longer title than before"
      expect_eq(map.info_window.width, width, "frozen")
      m.title, m.snippet = nil, nil
      expect(map.info_window ~= nil, "a frozen window does not close")
      m.title = "A much longer title than before"
      map.selected_marker = nil
      map.selected_marker = m
      expect(map.info_window.width > width, "shown again with the new title")
      m.tracks_info_window_changes = true
      m.title = "Short"
      expect_eq(map.info_window.width, width, "tracking: at once")
      m.title = "   "
      expect(map.info_window == nil, "tracking: a blank window closes")
      expect(map.selected_marker == m, "and the marker stays selected")
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  @Test("R34: turning tracks_info_window_changes on redraws the default window with the title changed meanwhile")
  func turningTrackingOnRedrawsTheDefaultWindow() throws {
    let (outcome, _) = try ScriptRunnerTests().run(
      """
      local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 4 } }
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 }, title = "Short" }
      map.selected_marker = m
      local width = map.info_window.width
      m.title = "A much longer title than before"
      map:settle()
      expect_eq(map.info_window.width, width, "frozen while tracking is off")
      m.tracks_info_window_changes = true
      expect(map.info_window.width > width, "redrawn when tracking turns on, not at the next title change")
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }
}
