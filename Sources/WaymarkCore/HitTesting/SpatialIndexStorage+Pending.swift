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

  /// Doubles the capacity (at least 64).
  mutating func grow() {
    let newCapacity = max(64, 2 * capacity)
    let grown = UnsafeMutablePointer<PendingEntry>.allocate(capacity: newCapacity)
    if let entries {
      grown.moveInitialize(from: entries, count: count)
      entries.deallocate()
    }
    entries = grown
    capacity = newCapacity
  }

  /// A copy with its own buffer.
  func copy() -> PendingEntries {
    var other = PendingEntries()
    guard let entries, count > 0 else { return other }
    other.entries = .allocate(capacity: count)
    other.entries!.initialize(from: entries, count: count)
    other.count = count
    other.capacity = count
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
  /// million entries).
  static let sortBits = 24

  /// Adds an entry to the pending ones.
  @inline(__always)
  func insertPending(_ id: Int32, x: UInt32, y: UInt32) {
    if pending.count == pending.capacity { pending.grow() }
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
    let entries = UnsafeBufferPointer(start: pending.entries, count: pending.count)
    defer { entries.deallocate() }
    pending = PendingEntries()
    guard entries.count >= Self.sortedFlushMinimum else {
      for entry in entries { insertEntry(entry.id, x: entry.x, y: entry.y) }
      return
    }
    var sorted = SortedInsertion()
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: entries.count) { order in
      Self.sortInZOrder(entries, into: order)
      for k in order { sorted.insert(entries[Int(k)], into: self) }
    }
  }

  /// Fills `order` with the places of `entries` sorted by their Z-order keys, on the
  /// `sortBits` highest bits in which the keys differ (two passes of a counting sort).
  private static func sortInZOrder(
    _ entries: UnsafeBufferPointer<PendingEntry>, into order: UnsafeMutableBufferPointer<Int32>
  ) {
    let keys = entries.map { zOrder($0.x, $0.y) }
    var differing: UInt64 = 0
    for key in keys { differing |= key ^ keys[0] }
    let top = 64 - differing.leadingZeroBitCount
    let low = UInt64(max(top - sortBits, 0))
    let digit = UInt64(sortBits / 2)
    let mask: UInt64 = (1 << digit) - 1
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: entries.count) { scratch in
      for k in order.indices { scratch[k] = Int32(k) }
      // Least significant digit first: each pass is stable, so the second keeps the first's order.
      for (pass, (from, to)) in [(scratch, order), (order, scratch)].enumerated() {
        let shift = low + UInt64(pass) * digit
        var starts = [Int](repeating: 0, count: Int(mask) + 2)
        for k in from { starts[Int((keys[Int(k)] >> shift) & mask) + 1] += 1 }
        for bucket in 1..<starts.count { starts[bucket] += starts[bucket - 1] }
        for k in from {
          let bucket = Int((keys[Int(k)] >> shift) & mask)
          to[starts[bucket]] = k
          starts[bucket] += 1
        }
      }
      _ = order.update(fromContentsOf: scratch)
    }
  }

  /// Inserts entries that come in Z-order: the next entry mostly belongs to the leaf the last
  /// one went to, which then takes it without a descent from the root.
  private struct SortedInsertion {
    /// The leaf the last entry went to, and its depth and the cells of that entry.
    var leaf: Int32 = -1
    var depth: Int32 = 0
    var x: UInt32 = 0
    var y: UInt32 = 0

    mutating func insert(_ entry: PendingEntry, into storage: SpatialIndexStorage) {
      if leaf >= 0, storage.firstChild[Int(leaf)] < 0,
        depth == 0 || storage.sameCell(entry.x, x, depth: depth) && storage.sameCell(entry.y, y, depth: depth),
        storage.nodes[Int(leaf)].count < SpatialIndexStorage.leafLimit
      {
        storage.append(entry.id, x: entry.x, y: entry.y, to: leaf)
        return
      }
      storage.insertEntry(entry.id, x: entry.x, y: entry.y)
      leaf = storage.leaf(containing: entry.x, entry.y)
      depth = storage.nodes[Int(leaf)].depth
      x = entry.x
      y = entry.y
    }
  }

  /// The cell's place in the quadtree's order: the bits of y and x interleaved from the top,
  /// so that the two bits for depth d pick the quadrant at that depth (bit 0 east, bit 1 south).
  @inline(__always)
  static func zOrder(_ x: UInt32, _ y: UInt32) -> UInt64 {
    spread(x) | spread(y) << 1
  }

  /// The 32 bits of `v` at the even bits of a 64-bit word.
  @inline(__always)
  private static func spread(_ v: UInt32) -> UInt64 {
    var w = UInt64(v)
    w = (w | w << 16) & 0x0000_FFFF_0000_FFFF
    w = (w | w << 8) & 0x00FF_00FF_00FF_00FF
    w = (w | w << 4) & 0x0F0F_0F0F_0F0F_0F0F
    w = (w | w << 2) & 0x3333_3333_3333_3333
    w = (w | w << 1) & 0x5555_5555_5555_5555
    return w
  }
}
