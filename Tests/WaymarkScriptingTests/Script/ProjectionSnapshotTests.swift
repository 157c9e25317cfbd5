import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// R68: `GMSMapView.projection`: "Returns a GMSProjection object that you can use to convert
/// between screen coordinates and latitude/longitude coordinates. This is a snapshot of the
/// current projection, and will not automatically update when the camera moves."
@Suite struct ProjectionSnapshotTests {
  @Test("R68: map.projection converts at the camera it was taken at, whatever the camera does later")
  func aProjectionIsASnapshot() throws {
    let folder = try PluginFolder()
    try folder.write(
      "demo.lua",
      """
      local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 10 } }
      local sydney = { lat = -33.8683, lng = 151.2086 }
      local before = map.projection
      local centre = before:point_for(sydney)
      local region = before:visible_region()
      local meters = before:points_for_meters(1000, sydney)
      map:animate({ target = { lat = -37.81969, lng = 144.966085 }, zoom = 12, bearing = 40, tilt = 30 })
      map:settle()
      -- The snapshot still answers for the old camera ...
      local again = before:point_for(sydney)
      expect_eq(again.x, centre.x, "R68: the same point as before the move")
      expect_eq(again.y, centre.y, "R68: the same point as before the move")
      expect_eq(before:visible_region().far_left.lat, region.far_left.lat, "R68: the same region")
      expect_eq(before:points_for_meters(1000, sydney), meters, "R68: the same scale")
      expect(before:contains(sydney), "R68: Sydney was in view")
      local back = before:coordinate_for(centre)
      expect_near(back.lat, sydney.lat, 1e-9, "R29: a round trip")
      -- ... while the map and a new snapshot answer for the new one.
      expect(not map:contains(sydney), "the map now looks at Melbourne")
      expect(not map.projection:contains(sydney), "a new snapshot too")
      expect_near(map.projection:points_for_meters(1000, sydney), map:points_for_meters(1000, sydney), 1e-12)
      print(before, pcall(before.point_for, before, { x = 1 }))
      print(pcall(before.point_for, map, sydney))
      """)
    let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    #expect(outcome.error == nil)
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    let logs = outcome.records.filter { $0.event == .log }.compactMap(\.message)
    #expect(logs.count == 2)
    #expect(logs.first?.hasPrefix("projection\tfalse\t") == true, "no address in what print shows: \(logs)")
    #expect(logs.first?.contains("point_for") == true)
    #expect(logs.last?.hasPrefix("false\t") == true && logs.last?.contains("Projection") == true, "\(logs)")
  }
}
