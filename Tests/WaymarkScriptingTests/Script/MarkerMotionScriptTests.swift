import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// R46 and R47 as a script writes them: `map:animate_marker(m, { opacity =, rotation =,
/// position = }, options)` and `map.size = { width =, height = }`.
@Suite struct MarkerMotionScriptTests {
  private func expectPasses(_ script: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (outcome, _) = try ScriptRunnerTests().run(script)
    #expect(outcome.error == nil, "\(outcome.error ?? "")", sourceLocation: sourceLocation)
    #expect(outcome.failures.isEmpty, "\(outcome.failures)", sourceLocation: sourceLocation)
  }

  @Test("R46: animate_marker with a table: half-way strictly between, settled exactly the target, on_complete(true)")
  func aTableAnimatesOpacityRotationAndPosition() throws {
    try expectPasses(
      """
      local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 10 } }
      map:settle()
      local m = map:add_marker{ id = "m", position = { lat = -33.8683, lng = 151.2086 }, rotation = 350 }
      local done
      map:animate_marker(m, { opacity = 0.2, rotation = 10, position = { lat = -33.9, lng = 151.3 } },
        { duration = 1, easing = "ease_in_out", on_complete = function(finished) done = finished end })
      map:advance(0.5)
      expect(m.opacity > 0.2 and m.opacity < 1, "opacity half-way: " .. m.opacity)
      expect(m.rotation > 350 or m.rotation < 10, "the short way round, through 0: " .. m.rotation)
      expect(m.position.lng > 151.2086 and m.position.lng < 151.3)
      map:settle()
      expect_eq(m.opacity, 0.2)
      expect_eq(m.rotation, 10)
      expect_eq(m.position.lat, -33.9)
      expect_eq(m.position.lng, 151.3)
      expect_eq(done, true)
      map:animate_marker(m, { lat = -33.8683, lng = 151.2086 }, { duration = 0.5 })
      map:advance(0.25)
      expect_eq(m.opacity, 0.2, "the position form moves the position only")
      map:settle()
      expect_eq(m.position.lng, 151.2086)
      m:animate_position({ -33.9, 151.3 })
      map:settle()
      expect_eq(m.position.lng, 151.3)
      """)
  }

  @Test("R46: bad values get the field and the value, with a suggestion for an unknown key; nothing starts")
  func badValuesAreRefusedWhole() throws {
    try expectPasses(
      """
      local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 10 } }
      map:settle()
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
      local function message(target)
        local ok, err = pcall(map.animate_marker, map, m, target, { duration = 1 })
        expect(not ok)
        return err
      end
      local unknown = message({ opacty = 0.5 })
      expect(unknown:find("animate_marker: unknown field 'opacty'", 1, true), unknown)
      expect(unknown:find("did you mean opacity", 1, true), unknown)
      local range = message({ rotation = 90, opacity = 1.5 })
      expect(range:find("animate_marker.opacity: 1.5 is outside 0...1", 1, true), range)
      local kind = message({ rotation = "fast" })
      expect(kind:find("animate_marker.rotation", 1, true) and kind:find("string", 1, true), kind)
      expect(map.is_camera_moving == false)
      map:advance(1)
      expect_eq(m.rotation, 0, "nothing half-applied")
      expect_eq(m.opacity, 1)
      """)
  }

  @Test("R47: map.size = { width, height } resizes the view: the target stays at the centre, the camera reports it")
  func assigningTheSizeResizesTheView() throws {
    let (outcome, _) = try ScriptRunnerTests().run(
      """
      local map = waymark.map{ camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 10 },
        size = { width = 390, height = 844 } }
      map:settle()
      local before = map:visible_region()
      print("resizing")
      map.size = { width = 844, height = 390 }
      expect_eq(map.size.width, 844)
      expect_eq(map.size.height, 390)
      local centre = map:point_for(map.camera.target)
      expect_near(centre.x, 422, 1e-9)
      expect_near(centre.y, 195, 1e-9)
      expect(map:visible_region().near_left.lng < before.near_left.lng, "wider: the region follows")
      map:settle()
      print("resized")
      local ok, err = pcall(function() map.size = { width = -1, height = 390 } end)
      expect(not ok and err:find("map.size.width: -1 is negative", 1, true), err)
      ok, err = pcall(function() map.size = { width = 300 } end)
      expect(not ok and err:find("map.size.height", 1, true), err)
      expect_eq(map.size.width, 844, "nothing applied")
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    let start = try #require(outcome.records.firstIndex { $0.event == .log && $0.message == "resizing" })
    let end = try #require(outcome.records.firstIndex { $0.event == .log && $0.message == "resized" })
    let resize = outcome.records[(start + 1)..<end].map(\.event.rawValue)
    #expect(
      resize == [
        "will_move", "did_change_camera_position", "did_start_tile_rendering", "idle_at_camera_position",
        "did_finish_tile_rendering", "snapshot_ready",
      ], "\(resize)")
  }
}

/// R48 as a script writes it: `icon = { frames = { ... }, duration = }`.
@Suite struct MultiFrameIconScriptTests {
  @Test("R48: a multi-frame icon reads back as written; bad frames get the field and the value")
  func framesAreReadAndValidated() throws {
    let (outcome, _) = try ScriptRunnerTests().run(
      """
      local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 10 } }
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 }, icon = { duration = 1, frames = {
        { image = "a", width = 10, height = 10 }, { image = "b", width = 12, height = 30 } } } }
      expect_eq(#m.icon.frames, 2)
      expect_eq(m.icon.frames[2].image, "b")
      expect_eq(m.icon.duration, 1)
      local function message(icon)
        local ok, err = pcall(map.add_marker, map, { position = { lat = 0, lng = 0 }, icon = icon })
        expect(not ok)
        return err
      end
      local empty = message({ frames = {}, duration = 1 })
      expect(empty:find("marker.icon.frames: {} is empty", 1, true), empty)
      local size = message({ frames = { { image = "a", width = 10, height = 10 }, { image = "b", width = -2, height = 3 } }, duration = 1 })
      expect(size:find("marker.icon.frames[2].width: -2 is negative", 1, true), size)
      local missing = message({ frames = { { image = "a", width = 10 } }, duration = 1 })
      expect(missing:find("marker.icon.frames[1].height", 1, true), missing)
      local duration = message({ frames = { { image = "a", width = 10, height = 10 } } })
      expect(duration:find("marker.icon.duration", 1, true), duration)
      local unknown = message({ frames = { { image = "a", width = 10, height = 10 } }, duration = 1, speed = 2 })
      expect(unknown:find("marker.icon: unknown field 'speed'", 1, true), unknown)
      expect_eq(#map:markers(), 1, "nothing added")
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }
}
