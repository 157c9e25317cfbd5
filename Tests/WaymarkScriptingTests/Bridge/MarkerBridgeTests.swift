import Testing
import WaymarkCore

@testable import WaymarkScripting

/// Markers as Lua values: identity, R1 properties, validation through the core.
@Suite struct MarkerBridgeTests {
  /// Runs `body` as the setup of a plugin and returns what it printed and the errors.
  static func run(_ body: String) throws -> (logs: [String], errors: [String], fixture: PluginFixture) {
    let f = try PluginFixture(["t.lua": "local p = {}\nfunction p.setup(map)\n\(body)\nend\nreturn p"])
    return (f.logs, f.errors.compactMap(\.message), f)
  }

  @Test func theSameMarkerIsTheSameLuaValue() throws {
    let source = """
      local p = {}
      function p.setup(map) p.melbourne = map:marker("melbourne") end
      function p.did_tap_marker(map, marker)
        print(marker == p.melbourne, rawequal(marker, p.melbourne), marker == map:markers()[2])
        return marker == p.melbourne
      end
      return p
      """
    let f = try PluginFixture(["identity.lua": source])
    try f.map.tap(f.melbourne)
    #expect(f.logs == ["true\ttrue\ttrue"])
    #expect(f.records(.callback(.didTapMarker)).last?.result == .bool(true))
  }

  @Test func propertiesReadWithTheR1Names() throws {
    let (logs, errors, _) = try Self.run(
      """
      local m = map:marker("sydney")
      print(m.id, m.title, m.snippet, m.position.lat, m.opacity, m.z_index, m.tappable, m.draggable)
      print(m.ground_anchor.x, m.ground_anchor.y, m.info_window_anchor.y, m.appear_animation, m.icon)
      print(m.map == map, m.flat, m.rotation, m.tracks_view_changes, m.tracks_info_window_changes)
      """)
    #expect(errors.isEmpty)
    #expect(
      logs == [
        "sydney\tSydney\tnil\t-33.8683\t1.0\t0\ttrue\tfalse", "0.5\t1.0\t0.0\tnone\tnil",
        "true\tfalse\t0.0\ttrue\tfalse",
      ])
  }

  @Test func writesAreValidatedAndErrorsNameFieldAndValue() throws {
    let (logs, errors, f) = try Self.run(
      """
      local m = map:marker("sydney")
      m.title = "Harbour"; m.opacity = 0.5; m.z_index = 3; m.user_data = { visits = 2 }
      m.icon = { image = "plane", width = 30, height = 20 }
      print(m.title, m.opacity, m.z_index, m.user_data.visits, m.icon.image)
      print(pcall(function() m.opacity = 1.5 end))
      print(pcall(function() m.opacity = "half" end))
      print(pcall(function() m.titel = "x" end))
      print(pcall(function() m.id = "other" end))
      m.position = { lat = 100, lng = 0 }
      """)
    #expect(logs[0] == "Harbour\t0.5\t3\t2\tplane")
    #expect(logs[1].hasSuffix("marker.opacity: 1.5 is outside 0...1"))
    #expect(logs[2].hasSuffix("marker.opacity: expected a number, got string"))
    #expect(logs[3].hasSuffix("Marker has no field 'titel'; did you mean title?"))
    #expect(logs[4].hasSuffix("marker.id is read-only"))
    #expect(errors.count == 1)
    #expect(errors[0].contains("t.lua:11: marker.position"))
    #expect(f.sydney.title == "Harbour" && f.sydney.opacity == 0.5 && f.sydney.zIndex == 3)
    #expect(f.sydney.position == Place.sydney)  // the invalid write changed nothing
  }

  /// R1: appear_animation is none, pop or fade_in; a misspelt one is refused with the
  /// closest name, and the marker keeps its value.
  @Test func anUnknownAppearAnimationIsRefusedWithASuggestion() throws {
    let (logs, _, f) = try Self.run(
      """
      local m = map:marker("sydney")
      print(pcall(function() m.appear_animation = "popp" end))
      print(m.appear_animation)
      """)
    #expect(logs[0].hasSuffix(#"marker.appear_animation: "popp" is not one of none, pop, fade_in; did you mean pop?"#))
    #expect(logs[1] == "none")
    #expect(f.sydney.appearAnimation == .none)
  }

  @Test func addRemoveAndTheMapProperty() throws {
    let (logs, errors, f) = try Self.run(
      """
      local m = map:add_marker{ position = { -27.47, 153.02 }, title = "Brisbane", user_data = "b" }
      print(m.id, m.user_data, #map:markers())
      m.map = nil
      print(m.map, #map:markers(), m.title)
      m.map = map
      map:remove_marker(map:marker("sydney"))
      print(#map:markers(), pcall(map.add_marker, map, { position = { lat = 0, lng = 0 }, opactiy = 1 }))
      print(pcall(map.add_marker, map, { title = "nowhere" }))
      """)
    #expect(errors.isEmpty)
    #expect(logs[0] == "marker-3\tb\t3")
    #expect(logs[1] == "nil\t2\tBrisbane")
    #expect(logs[2].hasSuffix("add_marker: unknown field 'opactiy'; did you mean opacity?"))
    #expect(logs[3].hasSuffix("add_marker: position is required"))
    #expect(f.map.numberOfMarkers == 2)
  }

  @Test func animatePositionRunsOnTheVirtualClockWithCompletion() throws {
    let (_, errors, f) = try Self.run(
      """
      map:marker("sydney"):animate_position({ lat = -30, lng = 150 }, {
        duration = 2, on_complete = function(finished) print("done", finished, map.time) end })
      """)
    #expect(errors.isEmpty)
    try f.map.advance(by: 3)
    #expect(f.logs == ["done\ttrue\t2.0"])
    #expect(f.sydney.position == Coordinate(latitude: -30, longitude: 150))
  }
}
