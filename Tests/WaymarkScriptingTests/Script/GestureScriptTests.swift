import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// R25 as a script writes it: the content follows the fingers.
@Suite struct GestureScriptTests {
  @Test("R25: map:pan{ x = 100 } moves a centred marker 100 points right and the camera west")
  func aPanMovesTheContentWithTheFinger() throws {
    let (outcome, _) = try ScriptRunnerTests().run(
      """
      local map = waymark.map{ camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 10 } }
      local m = map:add_marker{ id = "m", position = { lat = -37.81969, lng = 144.966085 } }
      local before = map:point_for(m.position)
      map:pan{ x = 100 }
      map:settle()
      local after = map:point_for(m.position)
      expect_near(after.x - before.x, 100, 1e-6, "right, with the finger")
      expect_near(after.y - before.y, 0, 1e-6)
      expect(map.camera.target.lng < 144.966085, "the camera moves west")
      map:pan{ y = -40 }
      map:settle()
      expect_near(map:point_for(m.position).y - after.y, -40, 1e-6, "up, with the finger")
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  @Test("R25: map:rotate(degrees) turns the content clockwise on the screen and lowers the bearing")
  func aRotationTurnsTheContentClockwise() throws {
    let (outcome, _) = try ScriptRunnerTests().run(
      """
      local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 10 } }
      local north = map:add_marker{ id = "north", position = { lat = 0.05, lng = 0 } }
      local centre = map:point_for{ lat = 0, lng = 0 }
      expect_near(map:point_for(north.position).x, centre.x, 1e-6, "straight above the centre")
      map:rotate(30)
      map:settle()
      expect(map:point_for(north.position).x > centre.x + 1, "clockwise: the top goes right")
      expect_near(map.camera.bearing, 330, 1e-9)
      map:rotate(-60)
      map:settle()
      expect(map:point_for(north.position).x < centre.x - 1, "anticlockwise: the top goes left")
      expect_near(map.camera.bearing, 30, 1e-9)
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }
}
