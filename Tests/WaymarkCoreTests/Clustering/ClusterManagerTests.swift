import Testing

@testable import WaymarkCore

/// google-maps-ios-utils' GMUDefaultClusterRendererTest and GMUClusterManagerTest: what is
/// rendered, when it is clustered again, and how splits move.
@Suite struct ClusterManagerTests {
  /// Google's camera position; at zoom 5 the 390-point view spans about 17 degrees of longitude.
  static let camera = Coordinate(latitude: -35, longitude: 151)

  static func map(zoom: Double = 5) throws -> MapView {
    try MapView(camera: CameraPosition(target: camera, zoom: zoom))
  }

  /// A cluster of `count` items up to 0.1 degrees east and north of `position`.
  static func cluster(_ name: String, at position: Coordinate, count: Int, title: String? = nil) -> Cluster {
    let items = (0..<count).map { index in
      ClusterItem(
        id: "\(name)\(index)",
        position: Coordinate(
          latitude: position.latitude + Double(index) / 100, longitude: position.longitude + Double(index) / 100),
        title: title, snippet: title.map { "\($0) snippet" })
    }
    return Cluster(position: position, items: items)
  }

  static func shifted(_ latitude: Double, _ longitude: Double = 0) -> Coordinate {
    Coordinate(latitude: camera.latitude + latitude, longitude: camera.longitude + longitude)
  }

  /// Six items 0.12 degrees of latitude (about 107 points at zoom 10, 3 at zoom 5) apart
  /// around the camera.
  static let spread = (0..<6).map { ClusterItem(id: "i\($0)", position: shifted((Double($0) - 2.5) * 0.12)) }

  static func still(_ map: MapView) -> ClusterManager {
    var options = ClusterOptions()
    options.animate = false
    return ClusterManager(map: map, options: options)
  }

  @Test("R64: clusters of at least 4 are one marker each, with the cluster as its role")
  func largeClustersNotExpanded() throws {
    let map = try Self.map()
    let manager = Self.still(map)
    let big = Self.cluster("a", at: Self.camera, count: 10)
    let four = Self.cluster("b", at: Self.shifted(1), count: 4)
    manager.render([big, four])
    #expect(manager.markers.count == 2)
    #expect(
      manager.markers.map { ClusterMarkerRole.of($0)?.cluster === big || ClusterMarkerRole.of($0)?.cluster === four }
        == [true, true])
    #expect(manager.markers.allSatisfy { $0.map === map })
  }

  @Test("R64: a cluster of 3 shows its items, copying title and snippet, with the items' ids")
  func smallClustersExpanded() throws {
    let map = try Self.map()
    let manager = Self.still(map)
    manager.render([Self.cluster("s", at: Self.camera, count: 3, title: "Title")])
    #expect(manager.markers.map(\.id) == ["s0", "s1", "s2"])
    #expect(manager.markers.allSatisfy { $0.title == "Title" && $0.snippet == "Title snippet" })
    #expect(manager.markers.allSatisfy { ClusterMarkerRole.of($0)?.item != nil })
  }

  @Test("R64: only clusters in the visible region are rendered; a small one when any item is")
  func onlyVisibleRendered() throws {
    let map = try Self.map()
    let manager = Self.still(map)
    let inside = Self.cluster("in", at: Self.camera, count: 10)
    let outside = Self.cluster("out", at: Self.shifted(20, 20), count: 10)
    manager.render([inside, outside])
    #expect(manager.markers.count == 1)
    #expect(ClusterMarkerRole.of(manager.markers[0])?.cluster === inside)
    // A pair whose position is out of view, one of whose items is in it, shows both items.
    let straddling = Cluster(
      position: Self.shifted(0, 30),
      items: [ClusterItem(id: "far", position: Self.shifted(0, 30)), ClusterItem(id: "near", position: Self.camera)])
    manager.render([straddling])
    #expect(manager.markers.map(\.id) == ["far", "near"])
  }

  @Test("R64: rendering again removes the previous markers from the map")
  func previousMarkersRemoved() throws {
    let map = try Self.map()
    let manager = Self.still(map)
    let clusters = [Self.cluster("a", at: Self.camera, count: 10)]
    manager.render(clusters)
    let previous = manager.markers
    manager.render(clusters)
    #expect(manager.markers.count == 1)
    #expect(previous[0].map == nil)
    #expect(map.numberOfMarkers == 1)
    manager.clearMarkers()
    #expect(map.numberOfMarkers == 0)
  }

  @Test("R64: a cluster marker at min_cluster_size, at most max_cluster_zoom (raw zoom)")
  func rendersAsCluster() throws {
    let map = try Self.map()
    let manager = Self.still(map)
    #expect(!manager.rendersAsCluster(Self.cluster("a", at: Self.camera, count: 3), atZoom: 10))
    #expect(!manager.rendersAsCluster(Self.cluster("a", at: Self.camera, count: 10), atZoom: 21))
    #expect(!manager.rendersAsCluster(Self.cluster("a", at: Self.camera, count: 10), atZoom: 20.01))
    #expect(manager.rendersAsCluster(Self.cluster("a", at: Self.camera, count: 10), atZoom: 20))
    #expect(manager.rendersAsCluster(Self.cluster("a", at: Self.camera, count: 4), atZoom: 2))
  }

  @Test("R63, R64: a cluster marker is a circle as wide as its label needs, anchored at its centre")
  func clusterMarkerLook() throws {
    let map = try Self.map()
    let manager = Self.still(map)
    manager.render([Self.cluster("a", at: Self.camera, count: 12)])
    let marker = try #require(manager.markers.first)
    #expect(marker.groundAnchor == Point(x: 0.5, y: 0.5))
    let diameter = try ClusterIconStyle().diameter(count: 12)
    #expect(marker.iconSize == Size(width: diameter, height: diameter))
    #expect(ClusterMarkerRole.of(marker)?.label == "10+")
    #expect(ClusterMarkerRole.of(marker)?.color == "#0099cc")
  }

  @Test("R64: a new rounded zoom clusters again 0.2 s after the last change; a move within it does not")
  func reclusterOnRoundedZoom() throws {
    let map = try Self.map(zoom: 5)
    let manager = Self.still(map)
    manager.add(Self.spread)
    manager.cluster()
    let rendered = { map.trace.records.filter { $0.event == .clustersRendered }.count }
    #expect(rendered() == 1)
    #expect(manager.markers.count == 1, "six items within 16 points at zoom 5: one cluster")
    try map.moveCamera(.zoomTo(5.4))
    try map.advance(by: 1)
    #expect(rendered() == 1, "5.4 rounds to 5")
    try map.moveCamera(.zoomTo(5.6))
    try map.advance(by: 0.1)
    try map.moveCamera(.zoomTo(9.6))
    try map.advance(by: 0.15)
    #expect(rendered() == 1, "the wait restarts at each change")
    try map.advance(by: 0.1)
    #expect(rendered() == 2)
    #expect(manager.markers.count == 6, "at zoom 10 the items are apart")
    let record = try #require(map.trace.records.last { $0.event == .clustersRendered })
    #expect(record["zoom"] == .number(9.6))
    #expect(record["clusters"] == .number(0))
    #expect(record["markers"] == .number(6))
  }

  @Test("R64: zooming in, the items' markers start at their old cluster and move apart in 0.5 s")
  func animatedSplit() throws {
    let map = try Self.map(zoom: 5)
    let manager = ClusterManager(map: map, options: ClusterOptions())
    manager.add(Self.spread)
    manager.cluster()
    let cluster = try #require(manager.clusters.first)
    try map.moveCamera(.zoomTo(10))
    try map.advance(by: 0.2)
    let item = try #require(map.marker(id: "i5"))
    #expect(item.position == cluster.position, "starts where its cluster stood")
    try map.advance(by: 0.25)
    #expect(item.position.latitude > cluster.position.latitude && item.position.latitude < -34.7, "on its way")
    try map.advance(by: 0.3)
    #expect(abs(item.position.latitude - Self.spread[5].position.latitude) < 1e-9)
    #expect(abs(item.position.longitude - Self.spread[5].position.longitude) < 1e-9)
    #expect(map.numberOfMarkers == 6, "the cluster marker went at once")
  }

  @Test("R64: zooming out, the items' markers move to the new cluster, then go")
  func animatedMerge() throws {
    let map = try Self.map(zoom: 10)
    let manager = ClusterManager(map: map, options: ClusterOptions())
    manager.add(Self.spread)
    manager.cluster()
    #expect(map.numberOfMarkers == 6)
    try map.moveCamera(.zoomTo(5))
    try map.advance(by: 0.2)
    #expect(map.numberOfMarkers == 7, "the cluster marker and the six items on their way")
    try map.advance(by: 0.6)
    #expect(map.numberOfMarkers == 1)
    #expect(manager.markers.count == 1)
  }

  @Test("R65: under the android policy a manager truncates the camera zoom and searches ±distance/2")
  func androidPolicy() throws {
    // Two items a little under 70 points apart at zoom 10: within iOS's ±100, beyond Android's ±50.
    let items = [
      ClusterItem(id: "a", position: Self.camera), ClusterItem(id: "b", position: Self.shifted(0, 0.0961)),
    ]
    for (policy, count, reclusters) in [(BehaviorPolicy.ios, 1, true), (.android, 2, false)] {
      let map = try MapView(camera: CameraPosition(target: Self.camera, zoom: 10.4), policy: policy)
      let manager = ClusterManager(map: map, options: ClusterOptions())
      #expect(manager.conventions == policy.clustering)
      manager.add(items)
      manager.cluster()
      #expect(manager.clusters.map(\.count) == Array(repeating: 2 / count, count: count), "\(policy.name)")
      let before = manager.clusters.map(ObjectIdentifier.init)
      // 10.9 rounds to 11 (iOS clusters again after the wait) but truncates to 10 (Android does not).
      try map.moveCamera(.zoomTo(10.9))
      try map.advance(by: 0.5)
      #expect((manager.clusters.map(ObjectIdentifier.init) != before) == reclusters, "\(policy.name)")
    }
  }
}
