import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// The handlers prepared in C per plugin (``PluginInstance/dispatch``): every way a plugin's
/// handler stops being the one to call (reload, disable, unload, a new map) is seen by the
/// next event, and the marker a handler gets is always the event's own.
@Suite struct PreparedDispatchTests {
  static func tapper(_ version: String) -> String {
    """
    local p = { name = "tapper" }
    function p.did_tap_marker(map, marker) print("\(version) " .. marker.id) end
    return p
    """
  }

  @Test func afterAReloadTheNewVersionsHandlerAnswersForMarkersSeenBefore() throws {
    let f = try PluginFixture(["tapper.lua": Self.tapper("v1")])
    try f.map.tap(f.sydney)
    try f.folder.write("tapper.lua", Self.tapper("v2"))
    f.host.reloadChangedPlugins()
    try f.map.tap(f.sydney)
    try f.map.tap(f.melbourne)
    try f.folder.write("tapper.lua", "return { name = 'tapper' }")  // no handler any more
    f.host.reloadChangedPlugins()
    try f.map.tap(f.sydney)
    #expect(f.logs == ["v1 sydney", "v2 sydney", "v2 melbourne"])
    #expect(f.errors.isEmpty)
  }

  @Test func aDisabledPluginIsNoLongerCalled() throws {
    let f = try PluginFixture([
      "broken.lua": """
      local p = {}
      function p.did_tap_marker(map, marker) print("tap " .. marker.id); error("broken") end
      return p
      """
    ])
    for _ in 0..<7 { _ = f.host.mapView(f.map, receive: .didTapMarker(f.sydney)) }
    #expect(f.logs == Array(repeating: "tap sydney", count: 5))
    #expect(f.errors.count == 6)  // five failures, then "disabled after 5 consecutive errors"
    #expect(f.host.plugins.first?.isDisabled == true)
  }

  @Test func afterUnloadingNoHandlerIsCalled() throws {
    let f = try PluginFixture(["tapper.lua": Self.tapper("v1")])
    _ = f.host.mapView(f.map, receive: .didTapMarker(f.sydney))
    f.host.unloadAll()
    _ = f.host.mapView(f.map, receive: .didTapMarker(f.sydney))
    #expect(f.logs == ["v1 sydney"])
  }

  @Test func aDeletedPluginFileIsNoLongerCalled() throws {
    let f = try PluginFixture(["tapper.lua": Self.tapper("v1"), "other.lua": "return {}"])
    _ = f.host.mapView(f.map, receive: .didTapMarker(f.sydney))
    try FileManager.default.removeItem(atPath: f.folder.file("tapper.lua"))
    f.host.reloadChangedPlugins()
    _ = f.host.mapView(f.map, receive: .didTapMarker(f.sydney))
    #expect(f.logs == ["v1 sydney"])
  }

  @Test func eachMarkerReachesTheHandlerAsItselfAmongManyAndAcrossMaps() throws {
    let f = try PluginFixture(["tapper.lua": Self.tapper("v1")])
    var markers = [f.sydney, f.melbourne]
    for i in 0..<600 {
      markers.append(try f.map.addMarker(MarkerOptions(position: Place.brisbane, id: "m\(i)")))
    }
    // Markers of another map share the serials of this map's markers.
    let other = try MapView(camera: CameraPosition(target: Place.melbourne, zoom: 4))
    for i in 0..<300 { markers.append(try other.addMarker(MarkerOptions(position: Place.sydney, id: "other\(i)"))) }
    var expected: [String] = []
    var random = SplitMix64(seed: 13)
    for _ in 0..<3_000 {
      let marker = markers[Int(random.next() % UInt64(markers.count))]
      _ = f.host.mapView(f.map, receive: .didTapMarker(marker))
      expected.append("v1 " + marker.id)
    }
    #expect(f.logs == expected)
  }

  @Test func aRemovedMarkersSerialIsNotMistakenForANewMarker() throws {
    let f = try PluginFixture(["tapper.lua": Self.tapper("v1")])
    _ = f.host.mapView(f.map, receive: .didTapMarker(f.sydney))
    try f.map.remove(f.sydney)
    let brisbane = try f.map.addMarker(MarkerOptions(position: Place.brisbane, id: "brisbane"))
    _ = f.host.mapView(f.map, receive: .didTapMarker(brisbane))
    _ = f.host.mapView(f.map, receive: .didTapMarker(f.sydney))
    #expect(f.logs == ["v1 sydney", "v1 brisbane", "v1 sydney"])
  }

  @Test func aScriptsNextMapIsAnsweredByItsOwnPlugins() throws {
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    try folder.write(
      "plugins/tapper.lua",
      """
      local p = {}
      function p.did_tap_marker(map, marker) print(map.policy .. " " .. marker.id) end
      return p
      """)
    try folder.write(
      "demo.lua",
      """
      local first = waymark.map{ policy = "ios", plugins = { "plugins" } }
      first:tap(first:add_marker{ id = "a", position = { lat = 0, lng = 0 } })
      local second = waymark.map{ policy = "web", plugins = { "plugins" } }
      second:tap(second:add_marker{ id = "b", position = { lat = 0, lng = 0 } })
      """)
    let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.records.filter { $0.event == .log }.compactMap(\.message) == ["ios a", "web b"])
  }

  /// Handlers run on the plugin's main thread, as in every Lua host: `coroutine.running()`
  /// answers it, coroutines inside a handler work, and a handler that causes another
  /// callback of the same plugin (a camera move inside a tap) finds its own values intact
  /// after the nested call, on the first call of a marker and on the cached calls after it.
  @Test func handlersRunOnTheMainThreadAndNestedCallsKeepTheStack() throws {
    let f = try PluginFixture([
      "main.lua": """
      local p = { name = "main" }
      local zoom = 5
      function p.did_tap_marker(map, marker)
        local _, ismain = coroutine.running()
        local co = coroutine.wrap(function(a) local b = coroutine.yield(a * 2); return a + b end)
        local first, second = co(3), co(4)
        local before = marker.id
        zoom = zoom + 1
        map:move_camera{ camera = { target = { lat = 1, lng = 1 }, zoom = zoom } }
        print("tap " .. tostring(ismain) .. " " .. first .. " " .. second .. " " .. before .. " " .. marker.id)
        return true -- no default behaviour: the camera moves only here
      end
      function p.did_change_camera_position(map, camera)
        local _, ismain = coroutine.running()
        print("camera " .. tostring(ismain) .. " " .. camera.zoom)
      end
      return p
      """
    ])
    for _ in 0..<2 { try f.map.tap(f.sydney) }
    #expect(
      f.logs == ["camera true 6.0", "tap true 6 7 sydney sydney", "camera true 7.0", "tap true 6 7 sydney sydney"])
    #expect(f.errors.isEmpty)
  }
}
