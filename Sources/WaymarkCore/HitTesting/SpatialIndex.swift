// A bucket PR-quadtree over Web Mercator world coordinates, used to find the
// markers near a tap without scanning every marker.
//
// Layout (chosen for cache locality: a query touches a handful of contiguous
// blocks instead of chasing one cache line per marker):
// - `nodes`: a flat array of quadtree nodes; the four children of a node are
//   consecutive. A leaf owns one malloc'd block holding its entries as three
//   parallel arrays (x, y: UInt32 cells of 2^-32 world units, id: Int32),
//   12 bytes per entry, and nothing else per entry: the caller says where an
//   id is when it moves or removes it, and the index descends to that cell's
//   leaf and finds the id among the leaf's entries.
// - `pending`: entries added since the last query, put in the tree together in
//   Z-order (SpatialIndexStorage+Pending.swift).
// A leaf splits when it would exceed `leafLimit` entries and merges back into
// its parent when the four siblings hold at most `leafLimit / 2`, so leaves
// follow the density of the data: a city with 100k markers gets deep leaves,
// an ocean gets none. Leaves at `maxDepth` (markers closer than ~4 cm at the
// equator) grow without splitting.

/// A spatial index over points in Web Mercator world coordinates ([0, 1) x [0, 1)).
///
/// Each point is keyed by a dense, non-negative `Int32` slot id. Points are
/// kept at a resolution of 2^-32 world units (about 1 cm at the equator): the
/// index stores the cell `floor(v * 2^32)` of each coordinate (`y == 1` in the
/// last cell), and a box query reports every id whose cell meets the box, so
/// every point in the box and no point farther than one cell from it. Callers
/// that need exactness test the candidates themselves. `x` is taken modulo 1
/// (the world repeats horizontally; `x == 1` is stored as `0`), `y` is clamped
/// to `[0, 1]`. `x` must be finite and `y` must not be NaN.
///
/// `SpatialIndex` is a value type with copy-on-write storage: copying it is
/// O(1) and the first mutation of a shared copy duplicates the storage.
package struct SpatialIndex: @unchecked Sendable {
  // @unchecked: the storage is only mutated when uniquely referenced
  // (copy-on-write), so sharing a value across threads is as safe as an Array.
  private var storage: SpatialIndexStorage

  /// Creates an empty index.
  package init() {
    storage = SpatialIndexStorage()
  }

  /// The number of ids in the index.
  package var count: Int { storage.count }

  /// Adds `id` at `(x, y)`; `id` must not be in the index. Cheap: the entry waits with the
  /// others added since the last query, which puts them in the tree together.
  ///
  /// - Parameters:
  ///   - id: A non-negative slot id.
  ///   - x: World x, taken modulo 1.
  ///   - y: World y, clamped to `[0, 1]`.
  package mutating func insert(_ id: Int32, x: Double, y: Double) {
    precondition(id >= 0, "SpatialIndex: negative id")
    makeUnique()
    if x >= 0 && x < 1 && y >= 0 && y < 1 {  // as most points are: nothing to wrap or clamp
      storage.insertPending(id, x: SpatialIndexStorage.quantized(x), y: SpatialIndexStorage.quantized(y))
    } else {
      let cells = SpatialIndexStorage.cells(x: x, y: y)
      storage.insertPending(id, x: cells.x, y: cells.y)
    }
  }

  /// Moves `id` from `(fromX, fromY)`, where it was inserted or last moved to, to `(x, y)`;
  /// false (and nothing changes) if it is not there.
  ///
  /// A move that stays inside the same leaf (the common case for a drag or an
  /// animation frame) updates the point in place without allocating.
  @discardableResult
  package mutating func move(_ id: Int32, fromX: Double, fromY: Double, x: Double, y: Double) -> Bool {
    makeUnique()
    let from = SpatialIndexStorage.cells(x: fromX, y: fromY)
    let to = SpatialIndexStorage.cells(x: x, y: y)
    return storage.move(id, fromX: from.x, fromY: from.y, toX: to.x, toY: to.y)
  }

  /// Removes `id` from `(x, y)`, where it was inserted or last moved to; false (and nothing
  /// changes) if it is not there.
  @discardableResult
  package mutating func remove(_ id: Int32, x: Double, y: Double) -> Bool {
    makeUnique()
    let cells = SpatialIndexStorage.cells(x: x, y: y)
    return storage.remove(id, x: cells.x, y: cells.y)
  }

  /// Removes every id and releases the memory.
  package mutating func removeAll() {
    storage = SpatialIndexStorage()
  }

  /// The first id (in no particular order) stored at the cell of `(x, y)` for which
  /// `accept` is true, or nil: which of the ids at a point is a given one.
  package mutating func firstID(atX x: Double, y: Double, where accept: (Int32) -> Bool) -> Int32? {
    makeUnique()
    let cells = SpatialIndexStorage.cells(x: x, y: y)
    return storage.firstID(atX: cells.x, y: cells.y, where: accept)
  }

  /// Calls `body` for every id whose point's cell meets the box (edges
  /// included): every point in the box, and points less than a cell outside.
  ///
  /// The box may extend past `x = 0` or `x = 1`: the world repeats
  /// horizontally, so a point at `x = 0.999` is found by the box
  /// `[-0.01, 0.01]`. Precisely, with `k = floor(minX)`, `a = minX - k` and
  /// `b = maxX - k`, a point is reported when `minY <= y <= maxY` and either
  /// `b - a >= 1`, or `a <= x <= b`, or `x <= b - 1`, each comparison made
  /// between cells (`floor(v * 2^32)`, clamped to the world). `y` is not wrapped.
  /// Ids are reported once each, in no particular order. Cost is
  /// proportional to the leaves the box touches plus the ids reported
  /// (and, once after insertions, to putting the new ids in the tree).
  /// `body` must not mutate this index.
  ///
  /// - Parameters:
  ///   - minX: West edge in world units (may be negative).
  ///   - minY: North edge in world units.
  ///   - maxX: East edge in world units (may exceed 1).
  ///   - maxY: South edge in world units.
  ///   - body: Called with each id found.
  package mutating func forEach(
    inMinX minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int32) -> Void
  ) {
    makeUnique()
    storage.forEach(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { id, _, _ in body(id) }
  }

  /// ``forEach(inMinX:minY:maxX:maxY:_:)`` that also hands `body` the point of each id as
  /// the index keeps it: the west and north edges of its cell, in world units within
  /// [0, 1]; the point itself lies less than a cell (2^-32) east and south of them.
  package mutating func forEachPoint(
    inMinX minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int32, Double, Double) -> Void
  ) {
    makeUnique()
    storage.forEach(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { id, x, y in
      body(id, Double(x) * 0x1p-32, Double(y) * 0x1p-32)
    }
  }

  @inline(__always)
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) {
      storage = storage.copy()
    }
  }
}
