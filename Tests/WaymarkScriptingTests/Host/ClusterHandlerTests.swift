import Testing
import WaymarkCore

@testable import WaymarkScripting

/// The clustering handlers go through the same dispatch as every other (docs/plugins.md):
/// composition of several plugins, attribution and records in the trace, errors (R71, R72).
@Suite struct ClusterHandlerTests {
  static let counter = """
    local p = { name = "counter", priority = 10 }
    function p.did_tap_cluster(map, cluster)
      print(string.format("counter saw %d items, first %s at %.2f", cluster.count, cluster.items[1].id, cluster.position.lat))
      return false
    end
    function p.did_tap_cluster_item(map, item) print("counter saw item " .. item.id .. " " .. item.title) end
    function p.will_render_cluster_marker(map, marker)
      if marker.cluster then marker.title = "Cluster of " .. marker.cluster.count end
    end
    function p.did_render_cluster_marker(map, marker) print("rendered " .. (marker.title or marker.id)) end
    return p
    """
  static let zoomer = """
    local p = { name = "zoomer", priority = 5 }
    function p.did_tap_cluster(map, cluster) return cluster.count >= 10 end
    return p
    """
  static let broken = """
    local p = { name = "broken", priority = 20 }
    function p.did_tap_cluster(map, cluster) error("no cluster for you") end
    return p
    """

  /// Ten items north of Melbourne (one cluster marker at zoom 4) and two apart to the west
  /// (two item markers), clustered now.
  static func clustered(_ f: PluginFixture) -> ClusterManager {
    var options = ClusterOptions()
    options.animate = false
    let manager = ClusterManager(map: f.map, options: options)
    manager.add(
      (0..<10).map { ClusterItem(id: "c\($0)", position: Coordinate(latitude: -33 + Double($0) / 100, longitude: 145)) }
    )
    manager.add([
      ClusterItem(id: "west", position: Coordinate(latitude: -36, longitude: 135), title: "West"),
      ClusterItem(id: "far west", position: Coordinate(latitude: -36, longitude: 128), title: "Far west"),
    ])
    manager.cluster()
    return manager
  }

  @Test("R71: did_tap_cluster is a veto: the first plugin answering true decides, and nothing else runs")
  func clusterTapComposes() throws {
    let f = try PluginFixture(["a.lua": Self.counter, "b.lua": Self.zoomer])
    let manager = Self.clustered(f)
    let marker = try #require(manager.markers.first { $0.title == "Cluster of 10" })
    try f.map.tap(marker)
    #expect(f.logs.last == "counter saw 10 items, first c0 at -33.00")
    let tap = try #require(f.records(.callback(.didTapCluster)).last)
    #expect(tap.pluginName == "zoomer")
    #expect(tap.result == .bool(true))
    #expect(tap["count"] == .number(10))
    #expect(f.records(.callback(.didTapMarker)).isEmpty)
    #expect(f.map.selectedMarker == nil)
  }

  @Test("R71: did_tap_cluster_item that no plugin handles goes on to did_tap_marker and the default")
  func itemTapFallsThrough() throws {
    let f = try PluginFixture(["a.lua": Self.counter, "b.lua": Self.zoomer])
    let manager = Self.clustered(f)
    let west = try #require(manager.markers.first { $0.id == "west" })
    try f.map.tap(west)
    #expect(f.logs.last == "counter saw item west West")
    let tap = try #require(f.records(.callback(.didTapClusterItem)).last)
    #expect(tap["item"] == .string("west"))
    #expect(tap.answerer == .null)
    #expect(f.records(.callback(.didTapMarker)).last?.marker == "west")
    #expect(f.map.selectedMarker === west)
  }

  @Test("R72: will_render_cluster_marker restyles every rendered marker before did_render_cluster_marker hears it")
  func renderHandlersRestyle() throws {
    let f = try PluginFixture(["a.lua": Self.counter])
    let manager = Self.clustered(f)
    #expect(manager.markers.count == 3)
    #expect(f.logs == ["rendered Cluster of 10", "rendered West", "rendered Far west"])
    #expect(f.records(.callback(.willRenderClusterMarker)).map(\.marker) == manager.markers.map(\.id))
    #expect(f.records(.callback(.didRenderClusterMarker)).count == 3)
  }

  @Test("R71: a did_tap_cluster that raises is reported and counts as nil: the tap goes on")
  func clusterTapErrorCountsAsNil() throws {
    let f = try PluginFixture(["a.lua": Self.counter, "z.lua": Self.broken])
    let manager = Self.clustered(f)
    let marker = try #require(manager.markers.first { $0.title == "Cluster of 10" })
    try f.map.tap(marker)
    let error = try #require(f.errors.first)
    #expect(error["handler"] == .string("did_tap_cluster"))
    #expect(error.message?.contains("no cluster for you") == true)
    #expect(f.logs.last == "counter saw 10 items, first c0 at -33.00")
    #expect(f.map.selectedMarker === marker)
  }

  @Test(
    "R72: a cluster marker's user_data is the clustering's: assigning it is refused, and the marker keeps its cluster")
  func userDataOfAClusterMarkerIsRefused() throws {
    let styler = """
      local p = { name = "styler" }
      function p.will_render_cluster_marker(map, marker) marker.user_data = { styled = true } end
      function p.did_tap_cluster(map, cluster) print("tapped " .. cluster.count) return true end
      return p
      """
    let f = try PluginFixture(["s.lua": styler])
    let manager = Self.clustered(f)
    let marker = try #require(manager.markers.first { ClusterMarkerRole.of($0)?.cluster != nil })
    let error = try #require(f.errors.first)
    #expect(error["handler"] == .string("will_render_cluster_marker"))
    #expect(
      error.message?.contains(
        "marker.user_data: marker \(marker.id) was rendered by a cluster manager, which keeps its cluster or item there"
      ) == true, "\(error.message ?? "")")
    try f.map.tap(marker)
    #expect(f.logs.last == "tapped 10")
  }
}
