import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// R37 from a script: an icon's insets shrink its tap area and redefine its anchors.
@Suite struct IconInsetsScriptTests {
  private func run(_ script: String) throws -> ScriptOutcome {
    let (outcome, _) = try ScriptRunnerTests().run(script)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    return outcome
  }

  @Test("R37: a tap in the inset margin misses; the anchors are of the inset rectangle")
  func insetsShrinkTheTapAreaAndMoveTheAnchors() throws {
    _ = try run(
      """
      local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 10 } }
      -- 40 x 40, insets leave a 32 x 26 rectangle whose bottom centre stands on the position.
      local icon = { image = "shadowed", width = 40, height = 40, insets = { top = 4, left = 6, bottom = 10, right = 2 } }
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 }, title = "T", icon = icon }
      expect_eq(m.icon.insets.bottom, 10, "read back")
      local c = { x = map.size.width / 2, y = map.size.height / 2 }
      map:tap({ x = c.x, y = c.y + 5 })
      expect(map.selected_marker == nil, "the bottom margin is drawn but not tapped")
      map:tap({ x = c.x - 19, y = c.y - 10 })
      expect(map.selected_marker == nil, "nor the left margin")
      map:tap({ x = c.x + 15, y = c.y - 24 })
      expect(map.selected_marker == m, "the inset rectangle is")
      local w = map.info_window
      expect(math.abs(w.y + w.height - (c.y - 26)) < 1e-6, "the window stands on the inset rectangle's top")
      """)
  }

  @Test("R37: bad insets are refused naming the field and value, and nothing is applied")
  func badInsetsAreRefused() throws {
    _ = try run(
      """
      local map = waymark.map{}
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
      local ok, message = pcall(function()
        m.icon = { image = "i", width = 20, height = 20, insets = { top = -3 } }
      end)
      expect(not ok and message:find("icon.insets.top: -3 is below 0", 1, true), message)
      expect(m.icon == nil, "nothing half-applied: still the default pin")
      ok, message = pcall(function()
        m.icon = { image = "i", width = 20, height = 20, insets = { left = 12, right = 8 } }
      end)
      expect(not ok and message:find("icon.insets", 1, true) and message:find("leaves no area", 1, true), message)
      ok, message = pcall(map.add_marker, map,
        { position = { lat = 0, lng = 0 }, icon = { image = "i", width = 20, height = 20, insets = { top = 20 } } })
      expect(not ok and message:find("leaves no area", 1, true), message)
      ok, message = pcall(function()
        m.icon = { image = "i", width = 20, height = 20, insets = { tpo = 1 } }
      end)
      expect(not ok and message:find("top", 1, true), message)
      """)
  }
}
