import Testing
import WaymarkCore

@testable import WaymarkScripting

/// Overlays as Lua values: `user_data` as `GMSOverlay.userData` with the marker's plain-data
/// rules (R15), and the outline width of polygons and circles (`GMSPolygon.strokeWidth`).
@Suite struct OverlayBridgeTests {
  /// GMSOverlay.userData: "Overlay data. You can use this property to associate an arbitrary
  /// object with this overlay." The plugin that tapped the overlay reads what another set.
  @Test func userDataTravelsWithTheOverlayToOtherPlugins() throws {
    let owner = """
      local p = { name = "a_owner" }
      function p.setup(map)
        local route = map:add_polygon{ id = "zone", tappable = true,
          path = { { -30, 135 }, { -30, 140 }, { -25, 140 } },
          user_data = { kind = "zone", visits = 2, format = string.format } }
        print(route.user_data.kind, route.user_data.visits, route.user_data == route.user_data)
        route.user_data.visits = 3  -- the same table here, as a marker's
        print(route.user_data.visits)
      end
      return p
      """
    let reader = """
      local p = { name = "b_reader" }
      function p.did_tap_overlay(map, overlay)
        print(overlay.id, overlay.user_data.kind, overlay.user_data.visits, overlay.user_data.format)
        overlay.user_data = "seen"
      end
      return p
      """
    let f = try PluginFixture(["a_owner.lua": owner, "b_reader.lua": reader])
    let zone = try #require(f.map.overlays.first)
    let inside = try #require(f.map.projection.point(for: Coordinate(latitude: -29, longitude: 139)))
    try f.map.tap(at: inside)
    #expect(f.errors.isEmpty)
    // The other state saw the plain-data copy published at assignment (visits 2, the
    // function dropped): a table changed in place afterwards stays the owner's, as a marker's.
    #expect(f.logs == ["zone\t2\ttrue", "3", "zone\tzone\t2\tnil"])
    guard case .string(let seen)? = (zone.userData as? SharedUserData)?.value else {
      Issue.record("the overlay's user_data is not the string the reader assigned")
      return
    }
    #expect(seen == Array("seen".utf8))
  }

  /// The marker's rules: a value past the limits of plain data is refused, and the overlay is
  /// not added (nothing half-applied); the error names the field.
  @Test func userDataThatIsNotPlainDataIsRefusedAndNothingIsAdded() throws {
    let (logs, errors, f) = try MarkerBridgeTests.run(
      """
      local big = { text = string.rep("x", 9 * 1024 * 1024) }
      print(pcall(map.add_circle, map, { center = { -37, 144 }, radius = 10, user_data = big }))
      local c = map:add_circle{ center = { -37, 144 }, radius = 10 }
      print(pcall(function() c.user_data = big end))
      print(#map:overlays(), c.user_data)
      """)
    #expect(errors.isEmpty)
    #expect(logs.count == 3)
    #expect(logs[0].hasPrefix("false\t") && logs[0].contains("overlay.user_data"))
    #expect(logs[1].hasPrefix("false\t") && logs[1].contains("overlay.user_data"))
    #expect(logs[2] == "1\tnil")
    #expect(f.map.overlays.count == 1)
  }

  /// GMSPolygon.strokeWidth: "The width of the polygon outline in screen points." A
  /// polygon's and a circle's `width` is their outline's; a polyline's its line's.
  @Test func polygonAndCircleWidthIsTheOutlineWidth() throws {
    let (logs, errors, f) = try MarkerBridgeTests.run(
      """
      local zone = map:add_polygon{ path = { { -38, 144 }, { -38, 146 }, { -36, 146 } }, width = 4 }
      local ring = map:add_circle{ center = { -37, 144 }, radius = 1000 }
      local line = map:add_polyline{ path = { { -37, 144 }, { -33, 151 } } }
      print(zone.width, ring.width, line.width)
      ring.width = 0
      line.width = 6
      print(ring.width, line.width)
      print(pcall(function() zone.width = -1 end))
      print(pcall(map.add_polygon, map, { path = { { -38, 144 }, { -38, 146 }, { -36, 146 } }, width = "wide" }))
      print(zone.width, #map:overlays())
      """)
    #expect(errors.isEmpty)
    #expect(logs[0] == "4.0\tnil\t1.0")
    #expect(logs[1] == "0.0\t6.0")
    #expect(logs[2].hasPrefix("false\t") && logs[2].contains("polygon.width: -1 is negative"))
    #expect(logs[3].hasPrefix("false\t") && logs[3].contains("polygon.width"))
    #expect(logs[4] == "4.0\t3")
    #expect(f.map.overlays[0].options.strokeWidth == 4)
  }
}
