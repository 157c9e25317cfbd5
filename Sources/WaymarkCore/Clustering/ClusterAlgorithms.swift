extension ClusterItemSet {
  /// The clusters of `algorithm` at `zoom` (as given: a manager passes its rounded zoom), each
  /// algorithm's clusters in its order; every item is in exactly one cluster.
  ///
  /// - Parameter distance: In points: the search square's half side (`distance`) or the
  ///   grid's cell side (`grid`).
  package mutating func clusters(
    at zoom: Double, algorithm: ClusterAlgorithm, distance: Double, conventions: ClusteringConventions = .ios
  ) -> [Cluster] {
    switch algorithm {
    case .distance: distanceClusters(at: zoom, radius: distance * conventions.searchFraction)
    case .grid: gridClusters(at: zoom, cellSide: distance, rowsFromSouth: conventions.gridRowsFromSouth)
    }
  }

  /// R60 (GMUNonHierarchicalDistanceBasedAlgorithm): the items are visited in the order they
  /// were added; each one no cluster holds yet starts a cluster at its own position, which
  /// takes every item within ±`radius` points of it (a square), unless the item already is
  /// in a cluster whose first item is strictly closer to it. Clusters are in the order they
  /// were started, their items in the order they were added.
  private mutating func distanceClusters(at zoom: Double, radius searchPoints: Double) -> [Cluster] {
    let radius = searchPoints / Mercator.worldSize(zoom: zoom)
    let slotCount = slots.count
    var owner = [Int32](repeating: -1, count: slotCount)
    var ownerDistance = [Double](repeating: 0, count: slotCount)
    var seeds: [Int] = []
    for slot in 0..<slotCount where owner[slot] < 0 && slots[slot] != nil {
      let cluster = Int32(seeds.count)
      seeds.append(slot)
      let center = points[slot]
      forEachSlot(near: center, radius: radius) { other, point in
        let dx = point.x - center.x
        let dy = point.y - center.y
        let squared = dx * dx + dy * dy
        if owner[Int(other)] >= 0 && ownerDistance[Int(other)] < squared { return }
        owner[Int(other)] = cluster
        ownerDistance[Int(other)] = squared
      }
    }
    var members = [[ClusterItem]](repeating: [], count: seeds.count)
    for slot in 0..<slotCount {
      if let item = slots[slot] { members[Int(owner[slot])].append(item) }
    }
    return seeds.indices.map { Cluster(position: slots[seeds[$0]]!.position, items: members[$0]) }
  }

  /// R61 (GMUGridBasedClusterAlgorithm): the world is cut into ⌈world width / `cellSide`⌉
  /// square cells a side at `zoom`; the items of a cell make one cluster at the cell's
  /// centre. Clusters are in the order of their first item. An item on the line between two
  /// rows is in the row counted from the side `rowsFromSouth` names (R61, R65).
  private func gridClusters(at zoom: Double, cellSide: Double, rowsFromSouth: Bool) -> [Cluster] {
    let cells = (Mercator.worldSize(zoom: zoom) / cellSide).rounded(.up)
    let last = Int(cells) - 1
    var clusterOfCell: [Int: Int] = [:]
    var cellOfCluster: [(column: Int, row: Int)] = []
    var members: [[ClusterItem]] = []
    for slot in slots.indices {
      guard let item = slots[slot] else { continue }
      let point = points[slot]
      let column = min(Int(cells * point.x), last)
      let row = min(Int(cells * (rowsFromSouth ? 1 - point.y : point.y)), last)
      let key = row * (last + 1) + column
      if let cluster = clusterOfCell[key] {
        members[cluster].append(item)
      } else {
        clusterOfCell[key] = members.count
        cellOfCluster.append((column, row))
        members.append([item])
      }
    }
    return members.indices.map { cluster in
      let cell = cellOfCluster[cluster]
      let y = (Double(cell.row) + 0.5) / cells
      let centre = WorldPoint(x: (Double(cell.column) + 0.5) / cells, y: rowsFromSouth ? 1 - y : y)
      return Cluster(position: Mercator.coordinate(centre), items: members[cluster])
    }
  }
}
