// The storage behind `SpatialIndex` (SpatialIndex.swift, whose opening comment gives the
// layout): the quadtree's nodes, the leaves' blocks of entries, and the mutations on them.
// The box query and the lookup of a point are in SpatialIndexStorage+Query.swift; the
// entries added since the last query, and how they are put in the tree in one pass, in
// SpatialIndexStorage+Pending.swift.

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
///
/// Its hot properties skip Swift's dynamic exclusivity checks: nothing calls out of the
/// storage while one of its methods runs (a query's `body` must not mutate it), and the
/// checks of all eight added 12% to adding a marker (add_markers_1m: 1,161 instructions an
/// addMarker against 1,041) and 3% to a spatial_move frame (callgrind). The least used,
/// `freeGroups`, `nodeCapacity` and `walking`, are checked: with the map's observer flag and world-point memo they
/// cost 3.4% of addMarker, under the 10% a check must cost to go (docs/performance.md).
final class SpatialIndexStorage {
  /// Most entries a leaf holds before it splits.
  static let leafLimit: Int32 = 32
  /// Leaves at this depth never split (side 2^-30 world units).
  static let maxDepth: Int32 = 30
  /// How many entries a leaf's block grows by under the split limit: small steps keep the
  /// unused part of the blocks small (it is most of what the index costs past its 12 bytes
  /// an entry).
  static let capacityStep: Int32 = 4

  @exclusivity(unchecked) var nodes: UnsafeMutablePointer<QuadNode>
  /// Per node: the index of its first child, or -1 for a leaf. Apart from `nodes`
  /// so that a descent reads 4 bytes a level from a dense array instead of a
  /// 24-byte node: on a million points the nodes outgrow the cache, and the
  /// descent's cache misses were most of the time an insertion took.
  @exclusivity(unchecked) var firstChild: UnsafeMutablePointer<Int32>
  @exclusivity(unchecked) var nodeCount: Int32
  var nodeCapacity: Int32
  /// First indices of released child groups, reused before growing `nodes`.
  var freeGroups: [Int32] = []
  /// Entries added and not yet in the tree (SpatialIndexStorage+Pending.swift).
  @exclusivity(unchecked) var pending = PendingEntries()

  /// Entries in the tree and pending.
  @exclusivity(unchecked) var count = 0
  /// The stack of the box query's walk, and whether a walk is using it.
  let walkStack = UnsafeMutablePointer<WalkItem>.allocate(capacity: walkCapacity)
  var walking = false

  init() {
    nodeCapacity = 64
    nodes = .allocate(capacity: Int(nodeCapacity))
    nodes.initialize(to: .leaf(parent: -1, depth: 0))
    firstChild = .allocate(capacity: Int(nodeCapacity))
    firstChild.initialize(to: -1)
    nodeCount = 1
  }

  deinit {
    for i in 0..<Int(nodeCount) {
      nodes[i].block?.deallocate()
    }
    nodes.deallocate()
    firstChild.deallocate()
    walkStack.deallocate()
    pending.release()
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
    other.pending = pending.copy()
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

  /// The cells of a point as the index stores it (x wrapped, y clamped).
  @inline(__always)
  static func cells(x: Double, y: Double) -> (x: UInt32, y: UInt32) {
    (quantized(normalizedX(x)), quantized(normalizedY(y)))
  }

  @inline(__always)
  static func quadrant(_ qx: UInt32, _ qy: UInt32, depth: Int32) -> Int32 {
    let shift = UInt32(31 - depth)
    return Int32(truncatingIfNeeded: ((qx >> shift) & 1) | (((qy >> shift) & 1) << 1))
  }

  // MARK: Mutation

  /// The leaf whose square holds the cell (qx, qy).
  @inline(__always)
  func leaf(containing qx: UInt32, _ qy: UInt32) -> Int32 {
    var n: Int32 = 0
    var depth: Int32 = 0
    while true {
      let child = firstChild[Int(n)]
      if child < 0 { return n }
      n = child + Self.quadrant(qx, qy, depth: depth)
      depth += 1
    }
  }

  /// The place of `id`, stored at the cell (qx, qy), in leaf `n`'s block, or nil.
  @inline(__always)
  func place(of id: Int32, x qx: UInt32, y qy: UInt32, inLeaf n: Int32) -> Int? {
    let node = nodes[Int(n)]
    guard let block = node.block else { return nil }
    let entries = LeafEntries(block, capacity: node.capacity)
    for k in 0..<Int(node.count) where entries.ids[k] == id && entries.xs[k] == qx && entries.ys[k] == qy {
      return k
    }
    return nil
  }

  /// Removes `id`, stored at the cell (qx, qy); false if it is not there.
  func remove(_ id: Int32, x qx: UInt32, y qy: UInt32) -> Bool {
    flushPending()
    let leaf = leaf(containing: qx, qy)
    guard let k = place(of: id, x: qx, y: qy, inLeaf: leaf) else { return false }
    removeEntry(at: k, ofLeaf: leaf)
    count -= 1
    return true
  }

  /// Moves `id` from the cell (fromX, fromY) to (toX, toY); false if it was not there. A
  /// move inside one leaf (a drag or an animation frame, mostly) updates it in place.
  func move(_ id: Int32, fromX: UInt32, fromY: UInt32, toX: UInt32, toY: UInt32) -> Bool {
    flushPending()
    let leaf = leaf(containing: fromX, fromY)
    guard let k = place(of: id, x: fromX, y: fromY, inLeaf: leaf) else { return false }
    let depth = nodes[Int(leaf)].depth
    if depth == 0 || sameCell(fromX, toX, depth: depth) && sameCell(fromY, toY, depth: depth) {
      let node = nodes[Int(leaf)]
      let entries = LeafEntries(node.block!, capacity: node.capacity)
      entries.xs[k] = toX
      entries.ys[k] = toY
      return true
    }
    removeEntry(at: k, ofLeaf: leaf)
    insertEntry(id, x: toX, y: toY)
    return true
  }

  @inline(__always)
  func sameCell(_ a: UInt32, _ b: UInt32, depth: Int32) -> Bool {
    (a ^ b) >> UInt32(32 - depth) == 0
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
      resize(n, to: c < Self.leafLimit ? c + Self.capacityStep : c + c / 2)
    }
    let node = nodes[i]
    let entries = LeafEntries(node.block!, capacity: node.capacity)
    let k = Int(node.count)
    entries.xs[k] = x
    entries.ys[k] = y
    entries.ids[k] = id
    nodes[i].count += 1
  }

  /// The block capacity for `count` entries: a whole number of steps.
  @inline(__always)
  static func capacity(for count: Int32) -> Int32 {
    (count + capacityStep - 1) / capacityStep * capacityStep
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

  /// Removes the entry at place `k` of leaf `leaf` (swap with the last entry), then shrinks
  /// or merges. Does not touch `count`.
  func removeEntry(at k: Int, ofLeaf leaf: Int32) {
    let i = Int(leaf)
    let node = nodes[i]
    let entries = LeafEntries(node.block!, capacity: node.capacity)
    let last = Int(node.count) - 1
    if k != last {
      entries.xs[k] = entries.xs[last]
      entries.ys[k] = entries.ys[last]
      entries.ids[k] = entries.ids[last]
    }
    nodes[i].count -= 1
    let remaining = nodes[i].count
    if remaining == 0 {
      resize(leaf, to: 0)
    } else if nodes[i].capacity - remaining >= 4 * Self.capacityStep {
      resize(leaf, to: Self.capacity(for: remaining))
    }
    mergeUpward(from: node.parent)
  }

  /// Splits leaf `n` into four children and distributes its entries, if any.
  func split(_ n: Int32) {
    let first = allocateGroup()
    let i = Int(n)
    let node = nodes[i]
    for q in 0..<4 {
      nodes[Int(first) + q] = .leaf(parent: n, depth: node.depth + 1)
      firstChild[Int(first) + q] = -1
    }
    firstChild[i] = first
    guard let block = node.block else { return }  // an empty leaf, split to take a batch
    let entries = LeafEntries(block, capacity: node.capacity)
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
        resize(first + Int32(q), to: Self.capacity(for: scratch[count + q]))
      }
      for k in 0..<count {
        append(entries.ids[k], x: entries.xs[k], y: entries.ys[k], to: first + scratch[k])
      }
    }
    block.deallocate()
    nodes[i].block = nil
    nodes[i].count = 0
    nodes[i].capacity = 0
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
        resize(p, to: Self.capacity(for: total))
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
}
