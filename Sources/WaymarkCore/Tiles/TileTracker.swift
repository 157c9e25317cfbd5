import Foundation

/// The tiles of a view (R31): a zoom level and the tile ranges covering the visible region.
struct TileSet: Hashable {
  let zoom: Int
  let minX: Int
  let maxX: Int
  let minY: Int
  let maxY: Int

  init(projection: Projection) {
    // Zoom is clamped to 0...30 (R21), so the tile counts fit an Int.
    zoom = Int(min(max(projection.camera.zoom, 0), 30).rounded(.down))
    let region = projection.visibleRegion
    let corners = [region.nearLeft, region.nearRight, region.farLeft, region.farRight].map(Mercator.worldPoint)
    let origin = Mercator.worldPoint(projection.camera.target)
    let xs = corners.map { origin.x + Mercator.wrappedDelta(from: origin.x, to: $0.x) }
    let tiles = exp2(Double(zoom))
    minX = Self.tile(xs.min()! * tiles, limit: 2 * tiles)
    maxX = Self.tile(xs.max()! * tiles, limit: 2 * tiles)
    minY = max(0, Self.tile(corners.map(\.y).min()! * tiles, limit: tiles))
    maxY = min(Int(tiles) - 1, Self.tile(corners.map(\.y).max()! * tiles, limit: tiles))
  }

  /// The tile holding `position` (in tiles), clamped to `limit` either way: never a trap
  /// for an extreme camera or view.
  private static func tile(_ position: Double, limit: Double) -> Int {
    guard position.isFinite else { return 0 }
    return Int(min(max(position, -limit), limit).rounded(.down))
  }
}

/// Which tiles are shown, whether they are loading, and whether snapshot_ready was told for
/// them (R31). A part of ``MapView`` (MapView+Tiles.swift makes the callbacks).
///
/// Invariants: a new tile set starts unloaded and unsnapshotted; snapshot_ready is told at
/// most once per tile set and camera move, and only once it is loaded.
struct TileTracker {
  /// The tiles of the current view; nil before the first request (time 0).
  private(set) var visible: TileSet?
  /// The load of ``visible`` that is pending, if any.
  var loading: VirtualClock.TaskID?
  /// Whether snapshot_ready was told for ``visible``.
  private(set) var snapshotSent = false

  /// Makes `set` the visible tiles; false (changing nothing) if they already are.
  mutating func show(_ set: TileSet) -> Bool {
    guard set != visible else { return false }
    visible = set
    snapshotSent = false
    return true
  }

  /// The camera starts moving: the map owes snapshot_ready again once it is stable (R54).
  mutating func cameraMoved() { snapshotSent = false }

  /// Whether snapshot_ready is due now (tiles loaded, not told yet, the camera still), and
  /// if so, notes it as told.
  mutating func takeSnapshot(cameraMoving: Bool) -> Bool {
    guard loading == nil, visible != nil, !snapshotSent, !cameraMoving else { return false }
    snapshotSent = true
    return true
  }
}
