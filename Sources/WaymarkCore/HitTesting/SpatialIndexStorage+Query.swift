// The queries of `SpatialIndexStorage`: the box query (every entry whose cell meets a box)
// and the lookup of the entries at one cell. Both put pending entries in the tree first.

extension SpatialIndexStorage {
  /// A query box in cells, edges included: every entry with qa <= x <= qb and qc <= y <= qd.
  struct CellBox {
    let qa: UInt64, qb: UInt64, qc: UInt64, qd: UInt64

    init(minX: Double, maxX: Double, minY: Double, maxY: Double) {
      qa = UInt64(SpatialIndexStorage.quantized(minX))
      qb = UInt64(SpatialIndexStorage.quantized(maxX))
      qc = UInt64(SpatialIndexStorage.quantized(minY))
      qd = UInt64(SpatialIndexStorage.quantized(maxY))
    }
  }

  /// Calls `body` with the id and cells of every entry whose cell meets the box (the wrapping
  /// rules of `SpatialIndex.forEach`).
  @inline(__always)
  func forEach(
    minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int32, UInt32, UInt32) -> Void
  ) {
    flushPending()
    // Stored y lies in [0, 1]: a box wholly above or below meets no cell.
    guard minX <= maxX, minY <= maxY, minY <= 1, maxY >= 0, count > 0 else { return }
    guard minX.isFinite, maxX.isFinite else {
      visit(CellBox(minX: 0, maxX: 1, minY: minY, maxY: maxY), body)
      return
    }
    let k = Self.floor(minX)
    let a = minX - k
    let b = maxX - k
    if b - a >= 1 {
      visit(CellBox(minX: 0, maxX: 1, minY: minY, maxY: maxY), body)
      return
    }
    visit(CellBox(minX: a, maxX: b, minY: minY, maxY: maxY), body)
    if b >= 1 {
      visit(CellBox(minX: 0, maxX: b - 1, minY: minY, maxY: maxY), body)
    }
  }

  /// A node waiting in a walk: its index, its square's first cells and its side's log2.
  typealias WalkItem = (node: Int32, shift: Int32, x: UInt64, y: UInt64)
  /// The most nodes a walk keeps waiting: at most three siblings wait per level.
  static let walkCapacity = 4 * 32

  /// Visits every leaf whose square meets `box` and reports its entries in the box. Node
  /// squares are whole runs of cells, so a node left out holds no entry in the box. The walk
  /// keeps its own stack, the storage's (a query from inside `body` takes one of its own).
  private func visit(_ box: CellBox, _ body: (Int32, UInt32, UInt32) -> Void) {
    if walking {
      let stack = UnsafeMutablePointer<WalkItem>.allocate(capacity: Self.walkCapacity)
      defer { stack.deallocate() }
      visit(box, stack, body)
    } else {
      walking = true
      defer { walking = false }
      visit(box, walkStack, body)
    }
  }

  private func visit(
    _ box: CellBox, _ stack: UnsafeMutablePointer<WalkItem>, _ body: (Int32, UInt32, UInt32) -> Void
  ) {
    do {
      stack[0] = Self.deepestNode(holding: box, from: firstChild)
      var top = 1
      while top > 0 {
        top -= 1
        let (n, shift, x, y) = stack[top]
        let first = firstChild[Int(n)]
        if first >= 0 {
          let half = UInt64(1) << UInt64(shift - 1)
          let midX = x + half
          let midY = y + half
          let west = box.qa < midX
          let east = box.qb >= midX
          if box.qc < midY {
            if west {
              stack[top] = (first, shift - 1, x, y)
              top += 1
            }
            if east {
              stack[top] = (first + 1, shift - 1, midX, y)
              top += 1
            }
          }
          if box.qd >= midY {
            if west {
              stack[top] = (first + 2, shift - 1, x, midY)
              top += 1
            }
            if east {
              stack[top] = (first + 3, shift - 1, midX, midY)
              top += 1
            }
          }
          continue
        }
        let node = nodes[Int(n)]
        let count = Int(node.count)
        guard count > 0 else { continue }
        let entries = LeafEntries(node.block!, capacity: node.capacity)
        let last = UInt64(1) << UInt64(shift) - 1
        if box.qa <= x && x + last <= box.qb && box.qc <= y && y + last <= box.qd {
          for k in 0..<count { body(entries.ids[k], entries.xs[k], entries.ys[k]) }
          continue
        }
        for k in 0..<count {
          let px = UInt64(entries.xs[k])
          let py = UInt64(entries.ys[k])
          if px >= box.qa && px <= box.qb && py >= box.qc && py <= box.qd {
            body(entries.ids[k], entries.xs[k], entries.ys[k])
          }
        }
      }
    }
  }

  /// The deepest node whose square holds the whole box, as a walk's first item: a tap's box
  /// lies within one child for most of the descent, which then costs no stack traffic.
  @inline(__always)
  private static func deepestNode(holding box: CellBox, from firstChild: UnsafeMutablePointer<Int32>) -> WalkItem {
    var item: WalkItem = (0, 32, 0, 0)
    while true {
      let first = firstChild[Int(item.node)]
      if first < 0 { return item }
      let half = UInt64(1) << UInt64(item.shift - 1)
      let midX = item.x + half
      let midY = item.y + half
      let east = box.qa >= midX
      let south = box.qc >= midY
      if !east && box.qb >= midX || !south && box.qd >= midY { return item }  // the box straddles
      item = (
        first + (east ? 1 : 0) + (south ? 2 : 0), item.shift - 1, east ? midX : item.x, south ? midY : item.y
      )
    }
  }

  /// The first id (in no particular order) stored at the cell (qx, qy) for which `accept`
  /// is true, or nil.
  func firstID(atX qx: UInt32, y qy: UInt32, where accept: (Int32) -> Bool) -> Int32? {
    flushPending()
    let node = nodes[Int(leaf(containing: qx, qy))]
    guard let block = node.block else { return nil }
    let entries = LeafEntries(block, capacity: node.capacity)
    for k in 0..<Int(node.count) where entries.xs[k] == qx && entries.ys[k] == qy && accept(entries.ids[k]) {
      return entries.ids[k]
    }
    return nil
  }
}
