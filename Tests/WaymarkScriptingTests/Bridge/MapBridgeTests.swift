import Testing
import WaymarkCore

@testable import WaymarkScripting

/// The map as a Lua value: camera, updates, selection, info windows, projection, timers,
/// overlays, content tables.
@Suite struct MapBridgeTests {
  @Test func cameraReadsAndAnimatesOnlyTheFieldsGiven() throws {
    let (logs, errors, f) = try MarkerBridgeTests.run(
      """
      local c = map.camera
      print(c.target.lat, c.zoom, c.bearing, c.tilt)
      map:animate({ zoom = 6 }, { duration = 1, on_complete = function(done) print("zoomed", done) end })
      """)
    #expect(errors.isEmpty)
    #expect(logs == ["-37.81969\t4.0\t0.0\t0.0"])
    try f.map.settle()
    #expect(f.map.camera.zoom == 6)
    #expect(f.map.camera.target == Place.melbourne)  // R26: the target channel was not touched
    #expect(f.logs.last == "zoomed\ttrue")
  }

  @Test(arguments: [
    ("{ zoom_in = true }", 5.0), ("{ zoom_out = true }", 3.0), ("{ zoom_by = 2, point = { x = 100, y = 100 } }", 6.0),
    ("{ zoom_to = 9 }", 9.0), ("{ camera = { target = { lat = 0, lng = 0 }, zoom = 3 } }", 3.0),
    ("{ fit = { { -33.8683, 151.2086 }, { -33.8683, 149.2086 } }, padding = 50 }", 7.67),
  ])
  func cameraUpdateTables(update: String, zoom: Double) throws {
    let (_, errors, f) = try MarkerBridgeTests.run("map:move_camera(\(update))")
    #expect(errors.isEmpty)
    #expect(abs(f.map.camera.zoom - zoom) < 0.1)
  }

  @Test func badCameraUpdatesNameTheProblem() throws {
    let (logs, _, _) = try MarkerBridgeTests.run(
      """
      print(pcall(map.move_camera, map, { zoom_in = true, zoom_to = 3 }))
      print(pcall(map.move_camera, map, { zom = 3 }))
      print(pcall(map.animate, map, { zoom = 3 }, { duratoin = 2 }))
      print(pcall(map.move_camera, map, { target = { lat = "x", lng = 1 } }))
      print(pcall(function() map.animate({ zoom = 3 }) end))
      """)
    #expect(logs[0].hasSuffix("move_camera: zoom_in cannot be combined with zoom_to"))
    #expect(logs[1].hasSuffix("move_camera: unknown field 'zom'; did you mean zoom?"))
    #expect(logs[2].hasSuffix("animate options: unknown field 'duratoin'; did you mean duration?"))
    #expect(
      logs[3].hasSuffix("move_camera.target.lat: expected a number in { lat = number, lng = number }, got string"))
    #expect(logs[4].contains("call it as map:animate(...)"))
  }

  @Test func selectionAndInfoWindowR11() throws {
    let source = """
      local p = {}
      function p.marker_info_window(map, marker)
        if marker.id == "sydney" then return { vstack = { "Sydney" }, spacing = 4 } end
      end
      function p.did_tap_info_window(map, marker)
        local w = map.info_window
        print(w.marker.id, w.kind, w.content.spacing, w.content.vstack[1])
        map.selected_marker = map:marker("melbourne")
      end
      return p
      """
    let f = try PluginFixture(["s.lua": source])
    f.map.selectedMarker = f.sydney
    try f.map.tapInfoWindow()  // R16: no deselection around it
    #expect(f.logs == ["sydney\twindow\t4\tSydney"])
    #expect(f.map.selectedMarker === f.melbourne)  // assigned from Lua, after the tap deselected
    #expect(f.map.infoWindow?.kindName == "default")
  }

  @Test func projectionAndTimers() throws {
    let (logs, errors, f) = try MarkerBridgeTests.run(
      """
      local p = map:point_for({ lat = -37.81969, lng = 144.966085 })
      local c = map:coordinate_for(p)
      print(math.floor(p.x), math.floor(p.y), math.floor(c.lat * 1000), map:contains(c), map:visible_region().near_left ~= nil)
      print(map:points_for_meters(1000, c) > 0, map.size.width, map.policy)
      local t = map:after(1, function() print("never") end)
      map:after(0.5, function() print("timer at", map.time); t:cancel(); print(t.pending) end)
      print(pcall(map.advance, map, 1))
      """)
    #expect(errors.isEmpty)
    #expect(logs[0] == "195\t422\t-37820\ttrue\ttrue")
    #expect(logs[1] == "true\t390.0\tios")
    #expect(
      logs[2].hasSuffix("advance cannot be called from a plugin: only scripts drive time (use map:after for delays)"))
    try f.map.advance(by: 2)
    #expect(f.logs.suffix(2) == ["timer at\t0.5", "false"])
  }

  /// NaN never reaches Lua: a point that is not a number raises instead of giving NaN back.
  @Test func projectionRefusesPointsAndDistancesOutOfRange() throws {
    let (logs, errors, _) = try MarkerBridgeTests.run(
      """
      print(pcall(map.coordinate_for, map, { x = 0/0, y = 0 }))
      print(pcall(map.coordinate_for, map, { x = 1e308, y = 0 }))
      print(pcall(map.points_for_meters, map, 1e308, { lat = 0, lng = 0 }))
      print(pcall(map.tap, map, { x = 1e308, y = 100 }))
      """)
    #expect(errors.isEmpty)
    #expect(logs[0].hasSuffix("coordinate_for.x: nan is not a finite number"))
    #expect(logs[1].hasSuffix("coordinate_for.x: 1e+308 is outside -1000000...1000000"))
    #expect(logs[2].hasSuffix("points_for_meters: 1e+308 meters is not a number from 0 to 1e9"))
    #expect(logs[3].contains("false"))
  }

  @Test func overlays() throws {
    let (logs, errors, f) = try MarkerBridgeTests.run(
      """
      local line = map:add_polyline{ path = { { -37, 144 }, { -33, 151 } }, tappable = true, id = "route" }
      local circle = map:add_overlay{ kind = "circle", center = { lat = -37, lng = 144 }, radius = 1000 }
      print(line.id, line.kind, line.tappable, circle.id, #map:overlays())
      circle.map = nil
      print(#map:overlays(), pcall(map.add_overlay, map, { kind = "cirle" }))
      """)
    #expect(errors.isEmpty)
    #expect(logs[0] == "route\tpolyline\ttrue\toverlay-2\t2")
    #expect(
      logs[1].hasSuffix("\"cirle\" is not one of polyline, polygon, circle, ground_overlay; did you mean circle?"))
    #expect(f.map.overlays.count == 1)
  }

  @Test func contentTablesDecodeAndErrorsPointAtTheField() throws {
    let source = """
      return {
        marker_info_contents = function(map, marker)
          if marker.id == "sydney" then return { hstack = { { image = "Icon", width = 40, height = -3 } } } end
          return { { text = "Melbourne", style = "title" }, { image = "Icon", width = 40, height = 40 } }
        end,
      }
      """
    let f = try PluginFixture(["c.lua": source])
    try f.map.tap(f.melbourne)
    #expect(f.map.infoWindow?.kindName == "contents")
    try f.map.tap(f.sydney)
    let message = try #require(f.errors.first?.message)
    #expect(message.contains("c.lua:3: marker_info_contents returned invalid content: content.hstack[1].height: -3"))
    #expect(f.map.infoWindow?.kindName == "default")
  }
}
