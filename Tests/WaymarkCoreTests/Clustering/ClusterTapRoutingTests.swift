import Testing
import WaymarkTesting

@testable import WaymarkCore

/// google-maps-ios-utils' GMUClusterManager routes a tap on a rendered marker to its own
/// delegate first (R71) and announces every marker its renderer draws (R72).
@Suite struct ClusterTapRoutingTests {
  /// A map with one cluster marker of ten items and one small cluster shown as its 3 items.
  struct Clustered {
    let map: MapView
    let delegate = RecordingDelegate()
    let manager: ClusterManager
    let clusterMarker: Marker
    let itemMarker: Marker

    init() throws {
      map = try ClusterManagerTests.map()
      map.delegate = delegate
      manager = ClusterManagerTests.still(map)
      manager.render([
        ClusterManagerTests.cluster("big", at: ClusterManagerTests.camera, count: 10),
        Cluster(
          position: ClusterManagerTests.shifted(3, -3),
          items: (0..<3).map { index in
            ClusterItem(
              id: "small\(index)", position: ClusterManagerTests.shifted(3, Double(index) * 3 - 3), title: "Small")
          }),
      ])
      clusterMarker = try #require(manager.markers.first { ClusterMarkerRole.of($0)?.cluster != nil })
      itemMarker = try #require(manager.markers.first { $0.id == "small1" })
      delegate.calls.removeAll()
    }

    /// The taps the delegate heard (not the window requests and camera moves that follow).
    var taps: [String] { delegate.events.filter { $0.hasPrefix("did_tap") } }
  }

  @Test("R71: a cluster tap did_tap_cluster consumes is not asked of did_tap_marker and selects nothing")
  func clusterTapConsumed() throws {
    let f = try Clustered()
    f.delegate.tapCluster = { _, cluster in cluster.count == 10 }
    try f.map.tap(.marker(f.clusterMarker))
    #expect(f.taps == ["did_tap_cluster(10)"])
    #expect(f.map.selectedMarker == nil)
  }

  @Test("R71: a cluster tap did_tap_cluster leaves goes to did_tap_marker, whose true skips the default")
  func clusterTapToMarkerHandler() throws {
    let f = try Clustered()
    f.delegate.tapCluster = { _, _ in false }
    f.delegate.tapMarker = { _, _ in true }
    try f.map.tap(.marker(f.clusterMarker))
    #expect(f.taps == ["did_tap_cluster(10)", "did_tap_marker(\(f.clusterMarker.id))"])
    #expect(f.map.selectedMarker == nil)
  }

  @Test("R71, R6: a cluster tap nobody handles ends in the default: the cluster marker is selected")
  func clusterTapToDefault() throws {
    let f = try Clustered()
    try f.map.tap(.marker(f.clusterMarker))
    #expect(f.taps == ["did_tap_cluster(10)", "did_tap_marker(\(f.clusterMarker.id))"])
    #expect(f.map.selectedMarker === f.clusterMarker)
  }

  @Test("R71: an item tap did_tap_cluster_item consumes is not asked of did_tap_marker, nor of did_tap_cluster")
  func itemTapConsumed() throws {
    let f = try Clustered()
    f.delegate.tapCluster = { _, _ in true }
    f.delegate.tapClusterItem = { _, item in item.id == "small1" }
    try f.map.tap(.marker(f.itemMarker))
    #expect(f.taps == ["did_tap_cluster_item(small1)"])
    #expect(f.map.selectedMarker == nil)
  }

  @Test("R71: an item tap did_tap_cluster_item leaves goes to did_tap_marker, whose true skips the default")
  func itemTapToMarkerHandler() throws {
    let f = try Clustered()
    f.delegate.tapMarker = { _, marker in marker.id == "small1" }
    try f.map.tap(.marker(f.itemMarker))
    #expect(f.taps == ["did_tap_cluster_item(small1)", "did_tap_marker(small1)"])
    #expect(f.map.selectedMarker == nil)
  }

  @Test("R71, R6, R7: an item tap nobody handles selects the item's marker, whose window shows the item's title")
  func itemTapToDefault() throws {
    let f = try Clustered()
    try f.map.tap(.marker(f.itemMarker))
    #expect(f.taps == ["did_tap_cluster_item(small1)", "did_tap_marker(small1)"])
    #expect(f.map.selectedMarker === f.itemMarker)
    #expect(f.itemMarker.title == "Small")
  }

  @Test("R71: a tap on a marker the clustering did not render asks neither clustering handler")
  func plainMarkerTap() throws {
    let f = try Clustered()
    let plain = try f.map.addMarker(MarkerOptions(position: ClusterManagerTests.shifted(-1, -1), id: "plain"))
    f.delegate.tapCluster = { _, _ in true }
    f.delegate.tapClusterItem = { _, _ in true }
    try f.map.tap(.marker(plain))
    #expect(f.taps == ["did_tap_marker(plain)"])
    #expect(f.map.selectedMarker === plain)
  }

  @Test("R72: every marker rendered, cluster and item alike, is announced: will_render then did_render")
  func renderCallbacks() throws {
    let map = try ClusterManagerTests.map()
    let delegate = RecordingDelegate()
    map.delegate = delegate
    let manager = ClusterManagerTests.still(map)
    manager.render([
      ClusterManagerTests.cluster("big", at: ClusterManagerTests.camera, count: 10),
      ClusterManagerTests.cluster("small", at: ClusterManagerTests.shifted(1, 1), count: 2),
      ClusterManagerTests.cluster("away", at: ClusterManagerTests.shifted(40, 40), count: 2),
    ])
    let expected = manager.markers.flatMap {
      ["will_render_cluster_marker(\($0.id))", "did_render_cluster_marker(\($0.id))"]
    }
    #expect(manager.markers.count == 3)
    #expect(delegate.events == expected)
  }
}
