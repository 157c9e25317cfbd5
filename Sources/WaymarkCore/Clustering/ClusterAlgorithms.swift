/// One clustering as flat arrays, with no object a cluster: cluster `c` stands at
/// `positions[c]` and holds the items of the slots `slots[starts[c]..<starts[c + 1]]`, in the
/// order they were added. What a caller listing tens of thousands of clusters reads
/// (`clusters_at` from Lua); ``ClusterItemSet/clusters(at:algorithm:distance:conventions:)``
/// makes ``Cluster`` objects of it.
package struct ClusterTable {
  /// Where each cluster's marker stands.
  package var positions: [Coordinate] = []
  /// Where each cluster's slots begin in ``slots``, and where the last ends.
  package var starts: [Int32] = [0]
  /// The slots of the items (``ClusterItemSet/item(inSlot:)``), cluster after cluster.
  package var slots: [Int32] = []

  /// How many clusters there are.
  package var count: Int { positions.count }
}

extension ClusterItemSet {
  /// The clusters of `algorithm` at `zoom` (as given: a manager passes its rounded zoom), each
  /// algorithm's clusters in its order; every item is in exactly one cluster.
  ///
  /// - Parameter distance: In points: the search square's half side (`distance`) or the
  ///   grid's cell side (`grid`).
  package mutating func clusters(
    at zoom: Double, algorithm: ClusterAlgorithm, distance: Double, conventions: ClusteringConventions = .ios
  ) -> [Cluster] {
    let table = clusterTable(at: zoom, algorithm: algorithm, distance: distance, conventions: conventions)
    return (0..<table.count).map { cluster in
      let items = (table.starts[cluster]..<table.starts[cluster + 1]).map { slots[Int(table.slots[Int($0)])]! }
      return Cluster(position: table.positions[cluster], items: items)
    }
  }

  /// ``clusters(at:algorithm:distance:conventions:)`` as a ``ClusterTable``.
  package mutating func clusterTable(
    at zoom: Double, algorithm: ClusterAlgorithm, distance: Double, conventions: ClusteringConventions = .ios
  ) -> ClusterTable {
    switch algorithm {
    case .distance: distanceClusters(at: zoom, radius: distance * conventions.searchFraction)
    case .grid: gridClusters(at: zoom, cellSide: distance, rowsFromSouth: conventions.gridRowsFromSouth)
    }
  }

  /// The item in `slot` of a ``ClusterTable`` of this set.
  package func item(inSlot slot: Int32) -> ClusterItem { slots[Int(slot)]! }

  /// The table of clusters whose items' slots `owner` gives (-1: no item), cluster by
  /// cluster in slot order, each standing at `positions`.
  private func table(owner: [Int32], positions: [Coordinate]) -> ClusterTable {
    var starts = [Int32](repeating: 0, count: positions.count + 1)
    for cluster in owner where cluster >= 0 { starts[Int(cluster) + 1] += 1 }
    for cluster in positions.indices { starts[cluster + 1] += starts[cluster] }
    var next = starts
    var members = [Int32](repeating: 0, count: Int(starts[positions.count]))
    for (slot, cluster) in owner.enumerated() where cluster >= 0 {
      members[Int(next[Int(cluster)])] = Int32(slot)
      next[Int(cluster)] += 1
    }
    return ClusterTable(positions: positions, starts: starts, slots: members)
  }

  /// R60 (GMUNonHierarchicalDistanceBasedAlgorithm): the items are visited in the order they
  /// were added; each one no cluster holds yet starts a cluster at its own position, which
  /// takes every item within ±`radius` points of it (a square), unless the item already is
  /// in a cluster whose first item is strictly closer to it. Clusters are in the order they
  /// were started, their items in the order they were added.
  private mutating func distanceClusters(at zoom: Double, radius searchPoints: Double) -> ClusterTable {
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
    return table(owner: owner, positions: seeds.map { slots[$0]!.position })
  }

  /// R61 (GMUGridBasedClusterAlgorithm): the world is cut into ⌈world width / `cellSide`⌉
  /// square cells a side at `zoom`; the items of a cell make one cluster at the cell's
  /// centre. Clusters are in the order of their first item. An item on the line between two
  /// rows is in the row counted from the side `rowsFromSouth` names (R61, R65).
  private func gridClusters(at zoom: Double, cellSide: Double, rowsFromSouth: Bool) -> ClusterTable {
    let cells = (Mercator.worldSize(zoom: zoom) / cellSide).rounded(.up)
    let last = Int(cells) - 1
    var clusterOfCell: [Int: Int32] = [:]
    var positions: [Coordinate] = []
    var owner = [Int32](repeating: -1, count: slots.count)
    for slot in slots.indices where slots[slot] != nil {
      let point = points[slot]
      let column = min(Int(cells * point.x), last)
      let row = min(Int(cells * (rowsFromSouth ? 1 - point.y : point.y)), last)
      let key = row * (last + 1) + column
      if let cluster = clusterOfCell[key] {
        owner[slot] = cluster
      } else {
        owner[slot] = Int32(positions.count)
        clusterOfCell[key] = Int32(positions.count)
        let y = (Double(row) + 0.5) / cells
        let centre = WorldPoint(x: (Double(column) + 0.5) / cells, y: rowsFromSouth ? 1 - y : y)
        positions.append(Mercator.coordinate(centre))
      }
    }
    return table(owner: owner, positions: positions)
  }
}
