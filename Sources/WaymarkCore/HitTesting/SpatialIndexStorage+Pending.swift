import Foundation

// Entries added to a `SpatialIndexStorage` wait in `pending` until the next query, lookup,
// move or removal, which puts them all in the tree at once, in the order of the quadtree
// (Z-order): a million markers added one after another then cost the tree one pass down
// its leaves instead of a descent to a random leaf each, whose cache misses were most of
// what adding a marker cost.

/// The entries added and not yet in the tree, in order of insertion: a buffer of their own,
/// freed when they go into the tree.
struct PendingEntries {
  var entries: UnsafeMutablePointer<PendingEntry>?
  var count = 0
  var capacity = 0

  /// Grows the capacity to `newCapacity` with `realloc`: a large buffer grows by remapping
  /// its pages (`mremap`), not by copying them into fresh ones, which a million additions
  /// would touch twice.
  mutating func grow(to newCapacity: Int) {
    guard let grown = realloc(entries, newCapacity * MemoryLayout<PendingEntry>.stride) else {
      fatalError("SpatialIndex: out of memory for \(newCapacity) pending entries")
    }
    entries = grown.bindMemory(to: PendingEntry.self, capacity: newCapacity)
    capacity = newCapacity
  }

  /// Frees the buffer (its entries are plain values).
  func release() { free(entries) }

  /// A copy with its own buffer.
  func copy() -> PendingEntries {
    var other = PendingEntries()
    guard let entries, count > 0 else { return other }
    other.grow(to: count)
    other.entries!.initialize(from: entries, count: count)
    other.count = count
    return other
  }
}

/// An entry added and not yet in the tree.
struct PendingEntry {
  /// The id.
  var id: Int32
  /// The cells of its point.
  var x: UInt32
  var y: UInt32
}

extension SpatialIndexStorage {
  /// Below this many pending entries they are inserted as they came: sorting would not pay.
  static let sortedFlushMinimum = 256
  /// Bits of the Z-order key the pending entries are sorted on: the highest bits in which
  /// they differ, enough to bring the entries of each leaf together (2^24 cells for a
  /// million entries), in two passes of 12 bits.
  static let sortBits = 24

  /// Adds an entry to the pending ones.
  @inline(__always)
  func insertPending(_ id: Int32, x: UInt32, y: UInt32) {
    if pending.count == pending.capacity { pending.grow(to: max(64, 2 * pending.capacity)) }
    pending.entries![pending.count] = PendingEntry(id: id, x: x, y: y)
    pending.count += 1
    count += 1
  }

  /// Puts every pending entry in the tree, in Z-order when there are many.
  @inline(__always)
  func flushPending() {
    if pending.count > 0 { insertPendingEntries() }
  }

  private func insertPendingEntries() {
    let taken = pending
    defer { taken.release() }
    let entries = UnsafeMutableBufferPointer(start: taken.entries, count: taken.count)
    pending = PendingEntries()
    guard entries.count >= Self.sortedFlushMinimum else {
      for entry in entries { insertEntry(entry.id, x: entry.x, y: entry.y) }
      return
    }
    withUnsafeTemporaryAllocation(of: PendingEntry.self, capacity: entries.count) { scratch in
      let orderedDepths = Self.sortInZOrder(entries, scratch: scratch)
      merge(entries, into: 0, depth: 0, orderedDepths: orderedDepths, scratch: scratch)
    }
  }

  /// Sorts `entries` by their Z-order keys on the `sortBits` highest bits in which the keys
  /// differ (two passes of a counting sort, each reading one buffer in order and writing the
  /// other), moving the entries themselves so that nothing after reads them out of order.
  /// Returns how many depths from the root the order holds for: at depth d < that, the
  /// entries of one node come in quadrant order.
  private static func sortInZOrder(
    _ entries: UnsafeMutableBufferPointer<PendingEntry>, scratch: UnsafeMutableBufferPointer<PendingEntry>
  ) -> Int32 {
    var differingX: UInt32 = 0
    var differingY: UInt32 = 0
    for entry in entries {
      differingX |= entry.x ^ entries[0].x
      differingY |= entry.y ^ entries[0].y
    }
    // The key's bit 2b + 1 is bit b of y, bit 2b is bit b of x; `low` is even, so each
    // 12-bit digit is 6 bits of x interleaved with the same 6 bits of y.
    let top = max(2 * (32 - differingX.leadingZeroBitCount), 2 * (32 - differingY.leadingZeroBitCount))
    let low = (max(top - sortBits, 0) + 1) & ~1
    let digitBits = sortBits / 2
    let buckets = 1 << digitBits
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * buckets) { starts in
      starts.initialize(repeating: 0)
      let shifts = [UInt32(low / 2), UInt32(low / 2 + digitBits / 2)]
      for entry in entries {
        starts[digit(entry, shift: shifts[0])] += 1
        starts[buckets + digit(entry, shift: shifts[1])] += 1
      }
      for pass in 0..<2 {
        var sum = 0
        for bucket in pass * buckets..<(pass + 1) * buckets {
          let size = starts[bucket]
          starts[bucket] = sum
          sum += size
        }
      }
      // Least significant digit first: each pass is stable, so the second keeps the first's order.
      for (pass, (from, to)) in [(entries, scratch), (scratch, entries)].enumerated() {
        let offset = pass * buckets
        for entry in from {
          let bucket = offset + digit(entry, shift: shifts[pass])
          to[starts[bucket]] = entry
          starts[bucket] += 1
        }
      }
    }
    return Int32((62 - low) / 2 + 1)
  }

  /// Bits shift..<shift + 6 of the entry's x and y, interleaved (y's bit above x's).
  @inline(__always)
  private static func digit(_ entry: PendingEntry, shift: UInt32) -> Int {
    Int(spread(entry.x >> shift & 63) | spread(entry.y >> shift & 63) << 1)
  }

  /// Puts `run`, entries inside the square of node `n` at `depth`, in `n`'s subtree: all in
  /// the leaf when they fit (one resize of its block), else through its four children, the
  /// leaf split first. `scratch` holds at least `run.count` entries.
  private func merge(
    _ run: UnsafeMutableBufferPointer<PendingEntry>, into n: Int32, depth: Int32, orderedDepths: Int32,
    scratch: UnsafeMutableBufferPointer<PendingEntry>
  ) {
    if firstChild[Int(n)] < 0 {
      let total = Int(nodes[Int(n)].count) + run.count
      if total <= Int(Self.leafLimit) || depth >= Self.maxDepth {
        appendAll(run, to: n, total: total)
        return
      }
      split(n)
    }
    let first = firstChild[Int(n)]
    let ends =
      depth < orderedDepths
      ? Self.quadrantEnds(ofOrdered: run, depth: depth) : Self.partition(run, depth: depth, scratch: scratch)
    var start = 0
    for q in 0..<4 {
      let end = ends[q]
      if end > start {
        let part = UnsafeMutableBufferPointer(rebasing: run[start..<end])
        merge(part, into: first + Int32(q), depth: depth + 1, orderedDepths: orderedDepths, scratch: scratch)
      }
      start = end
    }
  }

  /// Appends `run` to leaf `n`, which then holds `total` entries, growing its block once.
  private func appendAll(_ run: UnsafeMutableBufferPointer<PendingEntry>, to n: Int32, total: Int) {
    if total > Int(nodes[Int(n)].capacity) { resize(n, to: Self.capacity(for: Int32(total))) }
    let node = nodes[Int(n)]
    let entries = LeafEntries(node.block!, capacity: node.capacity)
    var k = Int(node.count)
    for entry in run {
      entries.xs[k] = entry.x
      entries.ys[k] = entry.y
      entries.ids[k] = entry.id
      k += 1
    }
    nodes[Int(n)].count = Int32(total)
  }

  /// Where each quadrant's entries end in `run`, whose entries come in quadrant order at
  /// `depth`: three binary searches.
  private static func quadrantEnds(ofOrdered run: UnsafeMutableBufferPointer<PendingEntry>, depth: Int32)
    -> InlineArray<4, Int>
  {
    var ends: InlineArray<4, Int> = [0, 0, 0, run.count]
    var low = 0
    for q in 0..<3 {
      var high = run.count
      while low < high {
        let middle = (low + high) / 2
        if quadrant(run[middle].x, run[middle].y, depth: depth) <= q { low = middle + 1 } else { high = middle }
      }
      ends[q] = low
    }
    return ends
  }

  /// Puts `run`'s entries in quadrant order at `depth`, keeping the order within each
  /// quadrant, and returns where each quadrant's entries end.
  private static func partition(
    _ run: UnsafeMutableBufferPointer<PendingEntry>, depth: Int32, scratch: UnsafeMutableBufferPointer<PendingEntry>
  ) -> InlineArray<4, Int> {
    var ends: InlineArray<4, Int> = [0, 0, 0, 0]
    for entry in run { ends[Int(quadrant(entry.x, entry.y, depth: depth))] += 1 }
    var starts: InlineArray<4, Int> = [0, ends[0], ends[0] + ends[1], ends[0] + ends[1] + ends[2]]
    for entry in run {
      let q = Int(quadrant(entry.x, entry.y, depth: depth))
      scratch[starts[q]] = entry
      starts[q] += 1
    }
    _ = run.update(fromContentsOf: scratch[..<run.count])
    return starts
  }

  /// The 6 bits of `v` (< 64) at the even bits 0, 2, ..., 10.
  @inline(__always)
  private static func spread(_ v: UInt32) -> UInt32 {
    var w = v
    w = (w | w << 4) & 0x0F0F
    w = (w | w << 2) & 0x3333
    w = (w | w << 1) & 0x5555
    return w
  }
}
