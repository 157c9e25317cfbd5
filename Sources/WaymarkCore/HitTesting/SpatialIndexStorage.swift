// The storage behind `SpatialIndex` (SpatialIndex.swift, whose opening comment gives the
// layout): the quadtree's nodes, the leaves' blocks of entries, the per-id back pointers,
// and the mutations and the box query on them.

/// One quadtree node. Children of an internal node are the four consecutive
/// nodes starting at its `firstChild` (kept apart, see `SpatialIndexStorage`),
/// in quadrant order (bit 0: east, bit 1: south).
struct QuadNode {
  /// Leaf only: entries as xs[capacity], ys[capacity], ids[capacity].
  var block: UnsafeMutableRawPointer?
  /// Index of the parent, or -1 for the root.
  var parent: Int32
  /// Leaf only: number of entries in `block`.
  var count: Int32
  /// Leaf only: number of entries `block` can hold.
  var capacity: Int32
  /// Depth in the tree (root = 0); the node covers a square of side 2^-depth.
  var depth: Int32

  static func leaf(parent: Int32, depth: Int32) -> QuadNode {
    QuadNode(block: nil, parent: parent, count: 0, capacity: 0, depth: depth)
  }
}

/// Typed views of a leaf block: the cells of the points, and their ids.
struct LeafEntries {
  let xs: UnsafeMutablePointer<UInt32>
  let ys: UnsafeMutablePointer<UInt32>
  let ids: UnsafeMutablePointer<Int32>

  @inline(__always)
  init(_ block: UnsafeMutableRawPointer, capacity: Int32) {
    let c = Int(capacity)
    xs = block.assumingMemoryBound(to: UInt32.self)
    ys = (block + 4 * c).assumingMemoryBound(to: UInt32.self)
    ids = (block + 8 * c).assumingMemoryBound(to: Int32.self)
  }

  static func allocate(capacity: Int32) -> UnsafeMutableRawPointer {
    let c = Int(capacity)
    let block = UnsafeMutableRawPointer.allocate(byteCount: 12 * c, alignment: 4)
    block.bindMemory(to: UInt32.self, capacity: 2 * c)
    (block + 8 * c).bindMemory(to: Int32.self, capacity: c)
    return block
  }
}

/// The storage a `SpatialIndex` value shares until its first mutation (copy on write).
final class SpatialIndexStorage {
  /// Most entries a leaf holds before it splits.
  static let leafLimit: Int32 = 32
  /// Leaves at this depth never split (side 2^-30 world units).
  static let maxDepth: Int32 = 30

  var nodes: UnsafeMutablePointer<QuadNode>
  /// Per node: the index of its first child, or -1 for a leaf. Apart from `nodes`
  /// so that a descent reads 4 bytes a level from a dense array instead of a
  /// 24-byte node: on a million points the nodes outgrow the cache, and the
  /// descent's cache misses were most of the time an insertion took.
  var firstChild: UnsafeMutablePointer<Int32>
  var nodeCount: Int32
  var nodeCapacity: Int32
  /// First indices of released child groups, reused before growing `nodes`.
  var freeGroups: [Int32] = []

  /// Per id: the leaf holding it, or -1 if absent.
  var leafOf: UnsafeMutablePointer<Int32>
  /// Per id: its index in the leaf's block.
  var slotOf: UnsafeMutablePointer<Int32>
  var idCapacity: Int

  var count = 0

  init() {
    nodeCapacity = 64
    nodes = .allocate(capacity: Int(nodeCapacity))
    nodes.initialize(to: .leaf(parent: -1, depth: 0))
    firstChild = .allocate(capacity: Int(nodeCapacity))
    firstChild.initialize(to: -1)
    nodeCount = 1
    idCapacity = 0
    leafOf = .allocate(capacity: 0)
    slotOf = .allocate(capacity: 0)
  }

  deinit {
    for i in 0..<Int(nodeCount) {
      nodes[i].block?.deallocate()
    }
    nodes.deallocate()
    firstChild.deallocate()
    leafOf.deallocate()
    slotOf.deallocate()
  }

  func copy() -> SpatialIndexStorage {
    let other = SpatialIndexStorage()
    other.nodes.deallocate()
    other.nodes = .allocate(capacity: Int(nodeCapacity))
    other.nodes.initialize(from: nodes, count: Int(nodeCount))
    other.firstChild.deallocate()
    other.firstChild = .allocate(capacity: Int(nodeCapacity))
    other.firstChild.initialize(from: firstChild, count: Int(nodeCount))
    other.nodeCount = nodeCount
    other.nodeCapacity = nodeCapacity
    for i in 0..<Int(nodeCount) {
      if let block = nodes[i].block {
        let capacity = nodes[i].capacity
        let newBlock = LeafEntries.allocate(capacity: capacity)
        newBlock.copyMemory(from: block, byteCount: 12 * Int(capacity))
        other.nodes[i].block = newBlock
      }
    }
    other.freeGroups = freeGroups
    other.leafOf.deallocate()
    other.slotOf.deallocate()
    other.leafOf = .allocate(capacity: idCapacity)
    other.leafOf.initialize(from: leafOf, count: idCapacity)
    other.slotOf = .allocate(capacity: idCapacity)
    other.slotOf.initialize(from: slotOf, count: idCapacity)
    other.idCapacity = idCapacity
    other.count = count
    return other
  }

  // MARK: Coordinates

  @inline(__always)
  static func normalizedX(_ x: Double) -> Double {
    if x >= 0 && x < 1 { return x }
    precondition(x.isFinite, "SpatialIndex: x must be finite")
    let wrapped = x - Self.floor(x)
    return wrapped < 1 ? wrapped : 0
  }

  /// floor(v) for finite v, without libm (the package does not link it).
  @inline(__always)
  static func floor(_ v: Double) -> Double {
    guard v.magnitude < 0x1p52 else { return v }  // already integral
    let t = Double(Int64(v))
    return t > v ? t - 1 : t
  }

  @inline(__always)
  static func normalizedY(_ y: Double) -> Double {
    precondition(!y.isNaN, "SpatialIndex: y is NaN")
    return min(max(y, 0), 1)
  }

  /// The 32-bit fixed-point cell of a coordinate: bit 31 - d picks the half at
  /// depth d. Exact: floor(v * 2^32) for v in [0, 1), with v >= 1 folded into
  /// the last cell and v < 0 into the first (query bounds past the world).
  @inline(__always)
  static func quantized(_ v: Double) -> UInt32 {
    let scaled = v * 4_294_967_296.0
    if scaled >= 4_294_967_295.0 { return UInt32.max }
    return scaled > 0 ? UInt32(scaled) : 0
  }

  @inline(__always)
  static func quadrant(_ qx: UInt32, _ qy: UInt32, depth: Int32) -> Int32 {
    let shift = UInt32(31 - depth)
    return Int32(truncatingIfNeeded: ((qx >> shift) & 1) | (((qy >> shift) & 1) << 1))
  }

  // MARK: Mutation

  func ensureIdCapacity(_ id: Int32) {
    let needed = Int(id) + 1
    guard needed > idCapacity else { return }
    let newCapacity = max(needed, idCapacity * 2, 64)
    let newLeaf = UnsafeMutablePointer<Int32>.allocate(capacity: newCapacity)
    newLeaf.moveInitialize(from: leafOf, count: idCapacity)
    (newLeaf + idCapacity).initialize(repeating: -1, count: newCapacity - idCapacity)
    let newSlot = UnsafeMutablePointer<Int32>.allocate(capacity: newCapacity)
    newSlot.moveInitialize(from: slotOf, count: idCapacity)
    (newSlot + idCapacity).initialize(repeating: 0, count: newCapacity - idCapacity)
    leafOf.deallocate()
    slotOf.deallocate()
    leafOf = newLeaf
    slotOf = newSlot
    idCapacity = newCapacity
  }

  func insert(_ id: Int32, x: Double, y: Double) {
    precondition(id >= 0, "SpatialIndex: negative id")
    ensureIdCapacity(id)
    if leafOf[Int(id)] >= 0 {
      move(id, x: x, y: y)
      return
    }
    insertEntry(id, x: Self.quantized(Self.normalizedX(x)), y: Self.quantized(Self.normalizedY(y)))
    count += 1
  }

  func move(_ id: Int32, x: Double, y: Double) {
    guard id >= 0, Int(id) < idCapacity, leafOf[Int(id)] >= 0 else {
      insert(id, x: x, y: y)
      return
    }
    let nx = Self.quantized(Self.normalizedX(x))
    let ny = Self.quantized(Self.normalizedY(y))
    let leaf = Int(leafOf[Int(id)])
    let slot = Int(slotOf[Int(id)])
    let node = nodes[leaf]
    let entries = LeafEntries(node.block!, capacity: node.capacity)
    // Same leaf iff the old and new cells agree on the leaf's top `depth` bits.
    if node.depth == 0
      || sameCell(entries.xs[slot], nx, depth: node.depth)
        && sameCell(entries.ys[slot], ny, depth: node.depth)
    {
      entries.xs[slot] = nx
      entries.ys[slot] = ny
      return
    }
    removeEntry(id)
    insertEntry(id, x: nx, y: ny)
  }

  @inline(__always)
  func sameCell(_ a: UInt32, _ b: UInt32, depth: Int32) -> Bool {
    (a ^ b) >> UInt32(32 - depth) == 0
  }

  func remove(_ id: Int32) {
    guard id >= 0, Int(id) < idCapacity, leafOf[Int(id)] >= 0 else { return }
    removeEntry(id)
    count -= 1
  }

  /// Descends to the leaf for the cell (qx, qy), splitting full leaves on the way, and appends.
  func insertEntry(_ id: Int32, x qx: UInt32, y qy: UInt32) {
    var n: Int32 = 0
    var depth: Int32 = 0
    while true {
      let child = firstChild[Int(n)]
      if child >= 0 {
        n = child + Self.quadrant(qx, qy, depth: depth)
        depth += 1
      } else if nodes[Int(n)].count >= Self.leafLimit && depth < Self.maxDepth {
        split(n)
      } else {
        break
      }
    }
    append(id, x: qx, y: qy, to: n)
  }

  /// Appends an entry to leaf `n`, growing its block if needed.
  @inline(__always)
  func append(_ id: Int32, x: UInt32, y: UInt32, to n: Int32) {
    let i = Int(n)
    if nodes[i].count == nodes[i].capacity {
      let c = nodes[i].capacity
      // Small steps keep slack low under the split limit; geometric past it.
      resize(n, to: c < Self.leafLimit ? c + 8 : c + c / 2)
    }
    let node = nodes[i]
    let entries = LeafEntries(node.block!, capacity: node.capacity)
    let slot = Int(node.count)
    entries.xs[slot] = x
    entries.ys[slot] = y
    entries.ids[slot] = id
    nodes[i].count += 1
    leafOf[Int(id)] = n
    slotOf[Int(id)] = Int32(slot)
  }

  /// Reallocates leaf `n`'s block to `newCapacity` (>= count); 0 frees it.
  func resize(_ n: Int32, to newCapacity: Int32) {
    let i = Int(n)
    let node = nodes[i]
    var newBlock: UnsafeMutableRawPointer? = nil
    if newCapacity > 0 {
      let block = LeafEntries.allocate(capacity: newCapacity)
      if let old = node.block {
        let from = LeafEntries(old, capacity: node.capacity)
        let to = LeafEntries(block, capacity: newCapacity)
        let c = Int(node.count)
        to.xs.update(from: from.xs, count: c)
        to.ys.update(from: from.ys, count: c)
        to.ids.update(from: from.ids, count: c)
      }
      newBlock = block
    }
    node.block?.deallocate()
    nodes[i].block = newBlock
    nodes[i].capacity = newCapacity
  }

  /// Removes `id` from its leaf (swap with the last entry), then shrinks or
  /// merges. Does not touch `count`.
  func removeEntry(_ id: Int32) {
    let leaf = leafOf[Int(id)]
    let slot = Int(slotOf[Int(id)])
    let i = Int(leaf)
    let node = nodes[i]
    let entries = LeafEntries(node.block!, capacity: node.capacity)
    let last = Int(node.count) - 1
    if slot != last {
      let moved = entries.ids[last]
      entries.xs[slot] = entries.xs[last]
      entries.ys[slot] = entries.ys[last]
      entries.ids[slot] = moved
      slotOf[Int(moved)] = Int32(slot)
    }
    nodes[i].count -= 1
    leafOf[Int(id)] = -1
    let remaining = nodes[i].count
    if remaining == 0 {
      resize(leaf, to: 0)
    } else if nodes[i].capacity - remaining >= 16 {
      resize(leaf, to: (remaining + 7) & ~7)
    }
    mergeUpward(from: node.parent)
  }

  /// Splits leaf `n` into four children and distributes its entries.
  func split(_ n: Int32) {
    let first = allocateGroup()
    let i = Int(n)
    let node = nodes[i]
    for q in 0..<4 {
      nodes[Int(first) + q] = .leaf(parent: n, depth: node.depth + 1)
      firstChild[Int(first) + q] = -1
    }
    let entries = LeafEntries(node.block!, capacity: node.capacity)
    let count = Int(node.count)
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: count + 4) { scratch in
      // scratch[0..<count]: quadrant of each entry; scratch[count...]: sizes.
      for q in 0..<4 { scratch[count + q] = 0 }
      for k in 0..<count {
        let q = Self.quadrant(entries.xs[k], entries.ys[k], depth: node.depth)
        scratch[k] = q
        scratch[count + Int(q)] += 1
      }
      for q in 0..<4 where scratch[count + q] > 0 {
        resize(first + Int32(q), to: (scratch[count + q] + 7) & ~7)
      }
      for k in 0..<count {
        append(entries.ids[k], x: entries.xs[k], y: entries.ys[k], to: first + scratch[k])
      }
    }
    node.block?.deallocate()
    nodes[i].block = nil
    nodes[i].count = 0
    nodes[i].capacity = 0
    firstChild[i] = first
  }

  /// Merges the children of `parent` (and further up) while four sibling
  /// leaves hold at most half a leaf.
  func mergeUpward(from start: Int32) {
    var p = start
    while p >= 0 {
      let first = Int(firstChild[Int(p)])
      var total: Int32 = 0
      for q in 0..<4 {
        let child = nodes[first + q]
        if firstChild[first + q] >= 0 { return }
        total += child.count
      }
      if total > Self.leafLimit / 2 { return }
      let pi = Int(p)
      firstChild[pi] = -1
      nodes[pi].count = 0
      nodes[pi].capacity = 0
      nodes[pi].block = nil
      if total > 0 {
        resize(p, to: (total + 7) & ~7)
      }
      for q in 0..<4 {
        let child = nodes[first + q]
        if let block = child.block {
          let entries = LeafEntries(block, capacity: child.capacity)
          for k in 0..<Int(child.count) {
            append(entries.ids[k], x: entries.xs[k], y: entries.ys[k], to: p)
          }
          block.deallocate()
        }
        nodes[first + q] = .leaf(parent: -1, depth: 0)
        firstChild[first + q] = -1
      }
      freeGroups.append(Int32(first))
      p = nodes[pi].parent
    }
  }

  func allocateGroup() -> Int32 {
    if let first = freeGroups.popLast() { return first }
    if nodeCount + 4 > nodeCapacity {
      let newCapacity = nodeCapacity * 2
      let newNodes = UnsafeMutablePointer<QuadNode>.allocate(capacity: Int(newCapacity))
      newNodes.moveInitialize(from: nodes, count: Int(nodeCount))
      nodes.deallocate()
      nodes = newNodes
      let newFirstChild = UnsafeMutablePointer<Int32>.allocate(capacity: Int(newCapacity))
      newFirstChild.moveInitialize(from: firstChild, count: Int(nodeCount))
      firstChild.deallocate()
      firstChild = newFirstChild
      nodeCapacity = newCapacity
    }
    let first = nodeCount
    (nodes + Int(first)).initialize(repeating: .leaf(parent: -1, depth: 0), count: 4)
    (firstChild + Int(first)).initialize(repeating: -1, count: 4)
    nodeCount += 4
    return first
  }

  // MARK: Query

  /// A query box in world units, with the cells of its edges.
  private struct Box {
    let a: Double, b: Double, c: Double, d: Double
    let qa: UInt32, qb: UInt32, qc: UInt32, qd: UInt32

    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      qa = SpatialIndexStorage.quantized(a)
      qb = SpatialIndexStorage.quantized(b)
      qc = SpatialIndexStorage.quantized(c)
      qd = SpatialIndexStorage.quantized(d)
    }
  }

  func forEach(
    minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int32) -> Void
  ) {
    // Stored y lies in [0, 1]: a box wholly above or below meets no cell.
    guard minX <= maxX, minY <= maxY, minY <= 1, maxY >= 0, count > 0 else { return }
    guard minX.isFinite, maxX.isFinite else {
      visit(0, x: 0, y: 0, size: 1, Box(-.infinity, .infinity, minY, maxY), body)
      return
    }
    let k = Self.floor(minX)
    let a = minX - k
    let b = maxX - k
    if b - a >= 1 {
      visit(0, x: 0, y: 0, size: 1, Box(-.infinity, .infinity, minY, maxY), body)
      return
    }
    visit(0, x: 0, y: 0, size: 1, Box(a, b, minY, maxY), body)
    if b >= 1 {
      visit(0, x: 0, y: 0, size: 1, Box(-.infinity, b - 1, minY, maxY), body)
    }
  }

  /// Visits node `n`, whose square is [x, x + size) x [y, y + size), for the
  /// box [a, b] x [c, d]. Node squares are dyadic, so the bounds are exact, and
  /// a node left out holds no point whose cell meets the box.
  private func visit(
    _ n: Int32, x: Double, y: Double, size: Double, _ box: Box, _ body: (Int32) -> Void
  ) {
    let first = firstChild[Int(n)]
    if first >= 0 {
      let half = size * 0.5
      let midX = x + half
      let midY = y + half
      let west = box.a < midX
      let east = box.b >= midX
      let north = box.c < midY
      let south = box.d >= midY
      if north {
        if west { visit(first, x: x, y: y, size: half, box, body) }
        if east { visit(first + 1, x: midX, y: y, size: half, box, body) }
      }
      if south {
        if west { visit(first + 2, x: x, y: midY, size: half, box, body) }
        if east { visit(first + 3, x: midX, y: midY, size: half, box, body) }
      }
      return
    }
    let node = nodes[Int(n)]
    let count = Int(node.count)
    guard count > 0 else { return }
    let entries = LeafEntries(node.block!, capacity: node.capacity)
    if box.a <= x && x + size <= box.b && box.c <= y && y + size <= box.d {
      // The whole square is inside the box (its far edges are exclusive,
      // except y = 1, which `y + size <= d` also covers).
      for k in 0..<count { body(entries.ids[k]) }
      return
    }
    for k in 0..<count {
      let px = entries.xs[k]
      let py = entries.ys[k]
      if px >= box.qa && px <= box.qb && py >= box.qc && py <= box.qd {
        body(entries.ids[k])
      }
    }
  }
}
