import Testing

@testable import WaymarkCore

/// What `waymark fuzz` checks of a clustered map after every input (issue 34), through the
/// map's own invariants.
@Suite struct ClusterInvariantTests {
  @Test("R60, R64: a clustered map's invariants hold as the camera zooms and pans, and while a clustering waits")
  func invariantsHoldThroughMoves() throws {
    let map = try ClusterManagerTests.map()
    let manager = ClusterManager(map: map, options: ClusterOptions())
    manager.add(ClusterManagerTests.spread)
    manager.add(ClusterManagerTests.cluster("far", at: ClusterManagerTests.shifted(3, 3), count: 5).items)
    manager.cluster()
    #expect(map.checkInvariants() == nil)
    for zoom in [10.0, 7.4, 12.0, 5.0] {
      try map.animate(.setCamera(CameraPosition(target: ClusterManagerTests.shifted(1, 1), zoom: zoom)), duration: 0.3)
      for _ in 0..<40 {
        try map.advance(by: 1.0 / 60)
        #expect(map.checkInvariants() == nil, "zoom \(zoom) at \(map.clock.now)")
      }
    }
    #expect(manager.markers.isEmpty == false)
  }

  @Test("R64: panning within one rounded zoom shows every cluster that comes into view, and only once")
  func panningShowsWhatComesIntoView() throws {
    let map = try ClusterManagerTests.map(zoom: 8)
    let manager = ClusterManagerTests.still(map)
    // A 20 x 20 lattice, 0.3 degrees apart: clusters of one to a few items at zoom 8.
    manager.add(
      (0..<400).map { index in
        ClusterItem(
          id: "p\(index)",
          position: ClusterManagerTests.shifted(Double(index / 20) * 0.3 - 3, Double(index % 20) * 0.3 - 3))
      })
    manager.cluster()
    let first = manager.markers.count
    try map.animate(.setCamera(CameraPosition(target: ClusterManagerTests.shifted(2.5, 2.5), zoom: 8.2)), duration: 1)
    for _ in 0..<70 {
      try map.advance(by: 1.0 / 60)
      #expect(map.checkInvariants() == nil, "at \(map.clock.now)")
    }
    #expect(manager.markers.count > first, "markers came into view")
    #expect(Set(manager.markers.map(\.id)).count == manager.markers.count)
  }

  @Test("A marker the manager shows that stands for no cluster breaks the map's invariants")
  func aForeignMarkerIsCaught() throws {
    let map = try ClusterManagerTests.map()
    let manager = ClusterManagerTests.still(map)
    manager.add(ClusterManagerTests.spread)
    manager.cluster()
    #expect(map.checkInvariants() == nil)
    manager.markers.append(try map.addMarker(MarkerOptions(position: ClusterManagerTests.camera, id: "stray")))
    #expect(map.checkInvariants() == "clusters: marker stray was rendered but stands for no cluster or item")
  }

  @Test("A cluster in view that is not shown breaks the map's invariants")
  func aMissingClusterIsCaught() throws {
    let map = try ClusterManagerTests.map()
    let manager = ClusterManagerTests.still(map)
    manager.add(ClusterManagerTests.spread)
    manager.cluster()
    manager.clearMarkers()
    manager.clusters = manager.clusters(at: 5)
    #expect(map.checkInvariants()?.hasPrefix("clusters: the cluster of 6 at") == true)
  }
}
