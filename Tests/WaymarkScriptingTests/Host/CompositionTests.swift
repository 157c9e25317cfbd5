import Testing
import WaymarkCore

@testable import WaymarkScripting

/// Composition of several plugins (docs/plugins.md): veto, content, notification; attribution in the
/// trace's `plugin` field.
@Suite struct CompositionTests {
  static let logger = """
    local p = { name = "logger", priority = 10 }
    function p.did_tap_marker(map, marker) print("logger saw " .. marker.id) end
    function p.did_close_info_window(map, marker) print("logger closed " .. marker.id) end
    return p
    """
  static let vetoer = """
    local p = { name = "vetoer", priority = 5 }
    function p.did_tap_marker(map, marker) return marker.id == "sydney" end
    function p.did_close_info_window(map, marker) print("vetoer closed " .. marker.id) end
    return p
    """
  static let late = """
    local p = {}
    function p.did_tap_marker(map, marker) print("late saw " .. marker.id); return true end
    function p.marker_info_window(map, marker) return { text = "late " .. marker.id } end
    return p
    """
  static let window = """
    return {
      name = "window", priority = 1,
      marker_info_window = function(map, marker)
        if marker.id == "melbourne" then return { { text = "Melbourne", style = "title" }, { image = "Icon", width = 40, height = 40 } } end
      end,
    }
    """

  @Test func vetoStopsAtTheFirstTrueAndNamesThePlugin() throws {
    let f = try PluginFixture(["a.lua": Self.logger, "b.lua": Self.vetoer, "c.lua": Self.late])
    try f.map.tap(f.sydney)
    #expect(f.logs == ["logger saw sydney"])  // late is not asked
    let tap = try #require(f.records(.callback(.didTapMarker)).last)
    #expect(tap.result == .bool(true))
    #expect(tap.pluginName == "vetoer")
    #expect(f.map.selectedMarker == nil)  // R6: default skipped
  }

  @Test func vetoFallsThroughFalseAndNilToTheNextPlugin() throws {
    let f = try PluginFixture(["a.lua": Self.logger, "b.lua": Self.vetoer, "c.lua": Self.late])
    try f.map.tap(f.melbourne)
    #expect(f.logs == ["logger saw melbourne", "late saw melbourne"])
    #expect(f.records(.callback(.didTapMarker)).last?.pluginName == "c")  // name defaults to the file name
  }

  @Test func noTrueMeansTheDefaultRunsWithANullPlugin() throws {
    let f = try PluginFixture(["a.lua": Self.logger, "d.lua": Self.window])
    try f.map.tap(f.melbourne)
    let tap = try #require(f.records(.callback(.didTapMarker)).last)
    #expect(tap.result == .bool(false))
    #expect(tap.answerer == .null)
    #expect(f.map.selectedMarker === f.melbourne)
    let window = try #require(f.records(.callback(.markerInfoWindow)).last)
    #expect(window.result == .string("content"))
    #expect(window.pluginName == "window")
    #expect(f.map.infoWindow?.kindName == "window")
  }

  @Test func contentFirstNonNilInPriorityOrderWins() throws {
    let f = try PluginFixture([
      "c.lua": Self.late.replacingOccurrences(of: "return true", with: "return false"), "d.lua": Self.window,
    ])
    try f.map.tap(f.melbourne)
    #expect(f.records(.callback(.markerInfoWindow)).last?.pluginName == "window")  // priority 1 beats 0
    try f.map.tap(f.sydney)  // window gives nil for sydney: the next plugin answers
    #expect(f.records(.callback(.markerInfoWindow)).last?.pluginName == "c")
  }

  @Test func notificationsReachEveryPluginInOrder() throws {
    let f = try PluginFixture(["a.lua": Self.logger, "b.lua": Self.vetoer])
    try f.map.tap(f.melbourne)
    try f.map.tap(at: Point(x: 10, y: 800))
    #expect(f.logs.suffix(2) == ["logger closed melbourne", "vetoer closed melbourne"])
  }

  @Test func tiesAreOrderedByFileName() throws {
    let f = try PluginFixture(["b.lua": "return { name = 'zed' }", "a.lua": "return { name = 'alpha' }"])
    #expect(f.host.plugins.map(\.name) == ["alpha", "zed"])
    #expect(f.records(.pluginLoaded).compactMap(\.pluginName) == ["alpha", "zed"])
  }
}
