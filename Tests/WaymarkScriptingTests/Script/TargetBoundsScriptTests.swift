import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// The camera target bounds (R66) and off-centre gestures (R67) as scripts write them.
@Suite struct TargetBoundsScriptTests {
  private func run(_ script: String) throws -> ScriptOutcome {
    let folder = try PluginFolder()
    try folder.write("demo.lua", script)
    return ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
  }

  @Test("R66: map.camera_target_bounds = { SW, NE } holds gestures; nil lifts it; bad bounds change nothing")
  func targetBoundsFromAScript() throws {
    let outcome = try run(
      """
      local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 10 } }
      expect(map.camera_target_bounds == nil, "R66: no bounds by default")
      map.camera_target_bounds = { { lat = -33.97, lng = 151.11 }, { lat = -33.77, lng = 151.31 } }
      local b = map.camera_target_bounds
      expect_eq(b[1].lat, -33.97, "south-west first")
      expect_eq(b[2].lng, 151.31, "north-east second")
      map:pan{ x = -3000 }
      map:settle()
      expect_near(map.camera.target.lng, 151.31, 1e-9, "R66: a pan stops at the east edge")
      print(pcall(function()
        map.camera_target_bounds = { { lat = -33.77, lng = 151.11 }, { lat = -33.97, lng = 151.31 } }
      end))
      print(pcall(function() map.camera_target_bounds = { { lat = -33.77, lng = 151.11 } } end))
      expect_eq(map.camera_target_bounds[2].lat, -33.77, "refused bounds change nothing")
      map.camera_target_bounds = nil
      expect(map.camera_target_bounds == nil, "nil lifts the bounds")
      """)
    #expect(outcome.error == nil)
    #expect(outcome.failures.isEmpty)
    let logs = outcome.records.filter { $0.event == .log }.compactMap(\.message)
    #expect(logs.count == 2)
    #expect(
      logs.first?.hasSuffix(
        "demo.lua:11: map.camera_target_bounds[2].lat: -33.97 is south of map.camera_target_bounds[1].lat"
          + " (-33.77); the corners are { south_west, north_east }") == true)
    #expect(
      logs.last?.hasSuffix(
        "demo.lua:13: map.camera_target_bounds: expected two corners { south_west, north_east }, got 1") == true)
  }

  @Test("R67: map.gestures.allow_scroll_during_rotate_or_zoom, and rotate's and pinch's point and pan")
  func offCentreGesturesFromAScript() throws {
    let outcome = try run(
      """
      local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 10 } }
      expect(map.gestures.allow_scroll_during_rotate_or_zoom == true, "R67: on by default")
      local start = map.camera.target
      local corner = { x = 50, y = 100 }
      local under = map:coordinate_for(corner)
      map:rotate(30, { point = corner })
      map:settle()
      local p = map:point_for(under)
      expect_near(p.x, 50, 1e-6, "R67: the ground under the fingers stays")
      expect_near(p.y, 100, 1e-6, "R67: the ground under the fingers stays")
      map.gestures = { allow_scroll_during_rotate_or_zoom = false }
      expect(map.gestures.allow_scroll_during_rotate_or_zoom == false)
      expect(map.gestures.zoom == true, "the other flags are unchanged")
      local target = map.camera.target
      map:pinch(1, { point = corner, pan = { y = 40 } })
      map:settle()
      map:rotate(-30, { point = corner, pan = { x = 40 } })
      map:settle()
      expect_near(map.camera.target.lat, target.lat, 1e-9, "R67: off, about the centre")
      expect_near(map.camera.target.lng, target.lng, 1e-9, "R67: off, about the centre")
      expect(target.lng ~= start.lng, "the first rotation moved the centre")
      print(pcall(map.rotate, map, 30, { pont = {} }))
      """)
    #expect(outcome.error == nil)
    #expect(outcome.failures.isEmpty)
    let logs = outcome.records.filter { $0.event == .log }.compactMap(\.message)
    #expect(logs == ["false\trotate options: unknown field 'pont'; did you mean point?"])
  }
}
