import Testing
import WaymarkCore
import WaymarkTesting

@testable import WaymarkScripting

/// A plugin host beside a Swift delegate: the delegate is one more answerer, asked before or
/// after the plugins, with the composition rules applied across both (docs/plugins.md).
@Suite struct DelegateBesidePluginsTests {
  /// The app's delegate: WaymarkTesting's recorder, answering as each test says.
  typealias SwiftDelegate = RecordingDelegate

  static let plugin = """
    local p = { name = "lua" }
    function p.did_tap_marker(map, marker) print("lua tap " .. marker.id); return marker.id == "sydney" end
    function p.marker_info_window(map, marker)
      print("lua window " .. marker.id)
      if marker.id == "melbourne" then return "lua melbourne" end
    end
    function p.did_close_info_window(map, marker) print("lua closed " .. marker.id) end
    return p
    """

  func fixture(_ delegate: SwiftDelegate, _ placement: PluginHost.DelegatePlacement, policy: BehaviorPolicy = .ios)
    throws -> (MapView, PluginHost, Marker, Marker, PluginFolder)
  {
    let map = try MapView(camera: CameraPosition(target: Place.melbourne, zoom: 4), policy: policy)
    let sydney = try map.addMarker(MarkerOptions(position: Place.sydney, id: "sydney", title: "Sydney"))
    let melbourne = try map.addMarker(MarkerOptions(position: Place.melbourne, id: "melbourne", title: "Melbourne"))
    let folder = try PluginFolder(["lua.lua": Self.plugin])
    let host = PluginHost(map: map, configuration: .forTests, beside: delegate, asked: placement, delegateName: "app")
    host.loadPlugins(from: [folder.path])
    return (map, host, sydney, melbourne, folder)
  }

  private func logs(_ map: MapView) -> [String] { map.trace.records.filter { $0.event == .log }.compactMap(\.message) }

  @Test("R6 across both: after the plugins, the delegate is asked only when no plugin vetoed")
  func vetoAfterPlugins() throws {
    let swift = SwiftDelegate()
    swift.tapMarker = { _, marker in marker.id == "melbourne" }
    let (map, host, sydney, melbourne, _) = try fixture(swift, .afterPlugins)
    try map.tap(.marker(sydney))
    #expect(swift.events.isEmpty, "the plugin vetoed first")
    #expect(map.trace.records.last { $0.event == .callback(.didTapMarker) }?["plugin"] == .string("lua"))
    try map.tap(.marker(melbourne))
    #expect(swift.events == ["did_tap_marker(melbourne)"])
    let tap = try #require(map.trace.records.last { $0.event == .callback(.didTapMarker) })
    #expect(tap["result"] == .bool(true) && tap["plugin"] == .string("app"), "the trace names the delegate")
    #expect(map.selectedMarker == nil, "handled: no selection (R6)")
    _ = host
  }

  @Test("R6 across both: in front of the plugins, the delegate's veto stops them")
  func vetoBeforePlugins() throws {
    let swift = SwiftDelegate()
    swift.tapMarker = { _, marker in marker.id == "sydney" }
    let (map, host, sydney, _, _) = try fixture(swift, .beforePlugins)
    try map.tap(.marker(sydney))
    #expect(swift.events == ["did_tap_marker(sydney)"])
    #expect(logs(map).isEmpty, "the plugin is not asked")
    #expect(map.trace.records.last { $0.event == .callback(.didTapMarker) }?["plugin"] == .string("app"))
    _ = host
  }

  @Test("R7 across both: the first non-nil content wins, in the order of the placement")
  func contentAcrossBoth() throws {
    for placement in [PluginHost.DelegatePlacement.afterPlugins, .beforePlugins] {
      let swift = SwiftDelegate()
      swift.infoWindow = { marker in text("swift \(marker.id)") }
      let (map, host, sydney, melbourne, _) = try fixture(swift, placement)
      map.selectedMarker = melbourne
      let winner = placement == .afterPlugins ? "lua" : "app"
      #expect(map.trace.records.last { $0.event == .callback(.markerInfoWindow) }?["plugin"] == .string(winner))
      map.selectedMarker = sydney  // the plugin has no window for Sydney: the delegate's wins either way
      #expect(map.trace.records.last { $0.event == .callback(.markerInfoWindow) }?["plugin"] == .string("app"))
      #expect(map.infoWindow?.kind == .window)
      _ = host
    }
  }

  @Test("Notifications reach both, in the order of the placement")
  func notificationsReachBoth() throws {
    let swift = SwiftDelegate()
    let (map, host, sydney, melbourne, _) = try fixture(swift, .beforePlugins)
    map.selectedMarker = sydney
    map.selectedMarker = melbourne
    #expect(swift.events.contains("did_close_info_window(sydney)"))
    #expect(logs(map).contains("lua closed sydney"))
    _ = host
  }

  @Test("R33 web: a delegate's true from did_tap_poi stops the default POI window beside the plugins")
  func poiHandledByEither() throws {
    let swift = SwiftDelegate()
    swift.tapPOI = { _ in true }
    let (map, host, _, _, _) = try fixture(swift, .afterPlugins, policy: .web)
    try map.addPointOfInterest(PointOfInterest(placeID: "p", name: "Park", location: Place.brisbane))
    try map.tap(.coordinate(Place.brisbane))
    #expect(swift.events.filter { $0.hasPrefix("did_tap") } == ["did_tap_poi(p:Park)"])
    #expect(map.infoWindow == nil)
    _ = host
  }

  @Test("A delegate released by its owner leaves the plugins alone")
  func releasedDelegate() throws {
    var swift: SwiftDelegate? = SwiftDelegate()
    swift!.tapMarker = { _, marker in marker.id == "melbourne" }
    let (map, host, _, melbourne, _) = try fixture(swift!, .beforePlugins)
    swift = nil
    #expect(host.delegate == nil)
    try map.tap(.marker(melbourne))
    #expect(map.selectedMarker === melbourne, "no one vetoed")
  }
}
