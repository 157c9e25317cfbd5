// A bucket PR-quadtree over Web Mercator world coordinates, used to find the
// markers near a tap without scanning every marker.
//
// Layout (chosen for cache locality: a query touches a handful of contiguous
// blocks instead of chasing one cache line per marker):
// - `nodes`: a flat array of quadtree nodes; the four children of a node are
//   consecutive. A leaf owns one malloc'd block holding its entries as three
//   parallel arrays (x, y: UInt32 cells of 2^-32 world units, id: Int32),
//   12 bytes per entry.
// - `leafOf` / `slotOf`: per-id back pointers (leaf node, index in its block),
//   which make remove and move O(1) (swap with the block's last entry).
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

  /// Adds `id` at `(x, y)`. If `id` is already present, moves it instead.
  ///
  /// - Parameters:
  ///   - id: A non-negative slot id.
  ///   - x: World x, taken modulo 1.
  ///   - y: World y, clamped to `[0, 1]`.
  package mutating func insert(_ id: Int32, x: Double, y: Double) {
    makeUnique()
    storage.insert(id, x: x, y: y)
  }

  /// Moves `id` to `(x, y)`. If `id` is absent, inserts it.
  ///
  /// A move that stays inside the same leaf (the common case for a drag or an
  /// animation frame) updates the point in place without allocating.
  package mutating func move(_ id: Int32, x: Double, y: Double) {
    makeUnique()
    storage.move(id, x: x, y: y)
  }

  /// Removes `id`. Does nothing if `id` is absent.
  package mutating func remove(_ id: Int32) {
    makeUnique()
    storage.remove(id)
  }

  /// Removes every id and releases the memory.
  package mutating func removeAll() {
    storage = SpatialIndexStorage()
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
  /// proportional to the leaves the box touches plus the ids reported.
  /// `body` must not mutate this index.
  ///
  /// - Parameters:
  ///   - minX: West edge in world units (may be negative).
  ///   - minY: North edge in world units.
  ///   - maxX: East edge in world units (may exceed 1).
  ///   - maxY: South edge in world units.
  ///   - body: Called with each id found.
  package func forEach(
    inMinX minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int32) -> Void
  ) {
    storage.forEach(minX: minX, minY: minY, maxX: maxX, maxY: maxY, body)
  }

  @inline(__always)
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) {
      storage = storage.copy()
    }
  }
}
