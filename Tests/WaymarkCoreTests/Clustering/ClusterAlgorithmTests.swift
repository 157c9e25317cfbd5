import Testing

@testable import WaymarkCore

/// google-maps-ios-utils' GMUNonHierarchicalDistanceBasedAlgorithmTest and
/// GMUGridBasedClusterAlgorithmTest on their fixtures, and the rules they leave implicit.
@Suite struct ClusterAlgorithmTests {
  /// Google's four items, at (±1, ±1) degrees.
  static let simpleItems = [(-1.0, -1.0), (-1.0, 1.0), (1.0, 1.0), (1.0, -1.0)].enumerated().map {
    ClusterItem(id: "item\($0.offset + 1)", position: Coordinate(latitude: $0.element.0, longitude: $0.element.1))
  }

  static func set(_ items: [ClusterItem]) -> ClusterItemSet {
    var set = ClusterItemSet()
    for item in items { set.add(item) }
    return set
  }

  /// An item on the equator `points` east of longitude 0 at zoom 10 (its world x is exact).
  static func equatorItem(_ id: String, points: Int) -> ClusterItem {
    ClusterItem(id: id, position: Coordinate(latitude: 0, longitude: Double(points) * 0x1p-18 * 360))
  }

  /// Google's randomized fixture: 10 items within 50 points (at zoom 10) east and south of
  /// each of the four simple locations, shuffled with a fixed seed.
  static func randomizedItems() -> [ClusterItem] {
    var random = ClusterRandom(state: 34)
    var items: [ClusterItem] = []
    for (group, center) in simpleItems.enumerated() {
      let point = Mercator.worldPoint(center.position)
      let worldUnits = 50 * 0x1p-18
      for index in 0..<10 {
        let near = WorldPoint(x: point.x + random.unit() * worldUnits, y: point.y + random.unit() * worldUnits)
        items.append(ClusterItem(id: "g\(group)-\(index)", position: Mercator.coordinate(near)))
      }
    }
    for index in items.indices { items.swapAt(index, Int(random.next() % UInt64(items.count))) }
    return items
  }

  static func assertPartition(_ clusters: [Cluster], of items: [ClusterItem]) {
    let ids = clusters.flatMap { $0.items.map(\.id) }
    #expect(ids.count == items.count)
    #expect(Set(ids) == Set(items.map(\.id)), "every item in exactly one cluster")
    #expect(clusters.allSatisfy { !$0.items.isEmpty })
  }

  @Test("R60: at zoom 4 Google's four items make one cluster, at zoom 14 four")
  func distanceSimpleFixture() {
    var set = Self.set(Self.simpleItems)
    let low = set.clusters(at: 4, algorithm: .distance, distance: 100)
    #expect(low.count == 1)
    #expect(low.first?.count == 4)
    let high = set.clusters(at: 14, algorithm: .distance, distance: 100)
    #expect(high.map(\.count) == [1, 1, 1, 1])
    Self.assertPartition(high, of: Self.simpleItems)
  }

  @Test("R60: shuffled items around four centres make four clusters of ten at zoom 10; at 18 a partition")
  func distanceRandomizedFixture() {
    let items = Self.randomizedItems()
    var set = Self.set(items)
    let clusters = set.clusters(at: 10, algorithm: .distance, distance: 100)
    #expect(clusters.map(\.count) == [10, 10, 10, 10])
    Self.assertPartition(clusters, of: items)
    for cluster in clusters {
      #expect(Set(cluster.items.map { $0.id.prefix(2) }).count == 1, "a cluster holds one centre's items")
    }
    let high = set.clusters(at: 18, algorithm: .distance, distance: 100)
    #expect(high.count > 4)
    Self.assertPartition(high, of: items)
  }

  @Test("R60: a cluster stands at its first unvisited item, not the centroid; clusters and items in insertion order")
  func distancePositionAndOrder() {
    let items = [
      Self.equatorItem("c", points: 500), Self.equatorItem("a", points: 0), Self.equatorItem("b", points: 40),
      Self.equatorItem("d", points: 530),
    ]
    var set = Self.set(items)
    let clusters = set.clusters(at: 10, algorithm: .distance, distance: 100)
    #expect(clusters.map { $0.items.map(\.id) } == [["c", "d"], ["a", "b"]])
    #expect(clusters[0].position == items[0].position)
    #expect(clusters[1].position == items[1].position)
  }

  @Test("R60: the search is a square of ±distance points, edges included, at the given zoom")
  func distanceSquare() {
    // 100 points east and 100 south is in the square (a diagonal of 141 points).
    let corner = Mercator.coordinate(WorldPoint(x: 0.5 + 100 * 0x1p-18, y: 0.5 + 100 * 0x1p-18))
    let items = [Self.equatorItem("a", points: 0), ClusterItem(id: "corner", position: corner)]
    var set = Self.set(items)
    #expect(set.clusters(at: 10, algorithm: .distance, distance: 100).count == 1)
    #expect(set.clusters(at: 11, algorithm: .distance, distance: 100).count == 2, "200 points apart at zoom 11")
    #expect(set.clusters(at: 11, algorithm: .distance, distance: 200).count == 1)
  }

  @Test("R60: an item as far from a later cluster's first item moves to it; a strictly closer one stays")
  func distanceTies() {
    // a and c are 120 points apart; b is 60 from each: it moves to c's cluster.
    var tie = Self.set([
      Self.equatorItem("a", points: 0), Self.equatorItem("c", points: 120), Self.equatorItem("b", points: 60),
    ])
    #expect(
      tie.clusters(at: 10, algorithm: .distance, distance: 100).map { $0.items.map(\.id) } == [["a"], ["c", "b"]])
    // b is 50 from a and 70 from c: it stays with a.
    var closer = Self.set([
      Self.equatorItem("a", points: 0), Self.equatorItem("c", points: 120), Self.equatorItem("b", points: 50),
    ])
    #expect(
      closer.clusters(at: 10, algorithm: .distance, distance: 100).map { $0.items.map(\.id) } == [["a", "b"], ["c"]])
  }

  @Test("R60: the world does not wrap for clustering: items either side of the antimeridian stay apart")
  func distanceAntimeridian() {
    let west = ClusterItem(id: "west", position: Coordinate(latitude: 0, longitude: 179.9999))
    let east = ClusterItem(id: "east", position: Coordinate(latitude: 0, longitude: -179.9999))
    var set = Self.set([west, east])
    #expect(set.clusters(at: 5, algorithm: .distance, distance: 100).count == 2)
  }

  @Test("R62: an id added again goes to the end; removed items are in no cluster, even after compaction")
  func addRemoveOrder() {
    var set = Self.set([Self.equatorItem("a", points: 0), Self.equatorItem("b", points: 10)])
    set.add(Self.equatorItem("a", points: 20))
    #expect(set.items.map(\.id) == ["b", "a"])
    #expect(set.clusters(at: 10, algorithm: .distance, distance: 100).first?.position == set.item(id: "b")?.position)
    for index in 0..<50 { set.add(Self.equatorItem("x\(index)", points: 30 + index)) }
    for index in 0..<50 { set.remove(id: "x\(index)") }
    #expect(set.remove(id: "missing") == nil)
    #expect(set.count == 2)
    Self.assertPartition(set.clusters(at: 10, algorithm: .distance, distance: 100), of: set.items)
    set.removeAll()
    #expect(set.clusters(at: 10, algorithm: .distance, distance: 100).isEmpty)
  }

  @Test("R61: the grid puts Google's four items in one cell at zoom 3 and in four at zoom 10")
  func gridSimpleFixture() {
    var set = Self.set(Self.simpleItems)
    let low = set.clusters(at: 3, algorithm: .grid, distance: 100)
    #expect(low.map(\.count) == [4])
    let high = set.clusters(at: 10, algorithm: .grid, distance: 100)
    #expect(high.map(\.count) == [1, 1, 1, 1])
    #expect(high.map { $0.items[0].id } == ["item1", "item2", "item3", "item4"], "in the order of their first item")
    Self.assertPartition(high, of: Self.simpleItems)
  }

  @Test("R61: a grid cluster stands at its cell's centre; cells are distance points a side")
  func gridCellCentre() {
    var set = Self.set([Self.equatorItem("a", points: 10), Self.equatorItem("b", points: 90)])
    // At zoom 10 the world is 262,144 points: 2,622 cells of 100 points (the last narrower).
    let clusters = set.clusters(at: 10, algorithm: .grid, distance: 100)
    let cells = (262_144.0 / 100).rounded(.up)
    let point = Mercator.worldPoint(clusters[0].position)
    let column = (cells * 0.5).rounded(.down)
    #expect(abs(point.x - (column + 0.5) / cells) < 1e-12)
    // Rows are counted from the south (GMSMapPoint's y grows north): the equator is the
    // southern line of the row above it.
    #expect(abs(point.y - (1 - (cells * 0.5).rounded(.down).advanced(by: 0.5) / cells)) < 1e-12)
    #expect(point.y < 0.5, "the cell north of the equator")
    #expect(clusters.count == (Int(cells * (0.5 + 90 * 0x1p-18)) == Int(column) ? 1 : 2))
  }

  @Test("R61, R65: an item on the line between two rows is in the northern one (iOS), the southern one (android)")
  func gridRowLine() {
    // Zoom 1: 512 points, 6 cells of 100 points a side; the equator is the line between rows.
    let items = [
      ClusterItem(id: "equator", position: Coordinate(latitude: 0, longitude: 10)),
      ClusterItem(id: "north", position: Coordinate(latitude: 0.001, longitude: 10)),
      ClusterItem(id: "south", position: Coordinate(latitude: -0.001, longitude: 10)),
    ]
    var set = Self.set(items)
    let ios = set.clusters(at: 1, algorithm: .grid, distance: 100, conventions: .ios)
    #expect(ios.map { $0.items.map(\.id) } == [["equator", "north"], ["south"]])
    #expect(ios[0].position.latitude > 0 && ios[1].position.latitude < 0)
    let android = set.clusters(at: 1, algorithm: .grid, distance: 100, conventions: .android)
    #expect(android.map { $0.items.map(\.id) } == [["equator", "south"], ["north"]])
    #expect(android[0].position.latitude < 0 && android[1].position.latitude > 0)
  }

  @Test("R65: the android conventions search ±distance/2 and truncate the zoom; iOS's round it")
  func conventions() {
    #expect(ClusteringConventions.ios.clusteringZoom(10.5) == 11)
    #expect(ClusteringConventions.ios.clusteringZoom(10.49) == 10)
    #expect(ClusteringConventions.android.clusteringZoom(10.99) == 10)
    var set = Self.set([Self.equatorItem("a", points: 0), Self.equatorItem("b", points: 70)])
    #expect(set.clusters(at: 10, algorithm: .distance, distance: 100, conventions: .ios).count == 1)
    #expect(set.clusters(at: 10, algorithm: .distance, distance: 100, conventions: .android).count == 2)
  }
}

/// SplitMix64, so the randomized fixture is the same on every run.
struct ClusterRandom {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
