/// The overlays of one map (R15), in the order they were added. A part of ``MapView``.
///
/// Invariants: ids are unique; every overlay here says it is on the map, and none removed
/// does (the map keeps `Overlay.map`).
struct OverlayStore {
  /// The overlays, in the order they were added.
  private(set) var overlays: [Overlay] = []
  /// The serials of generated ids (`overlay-N`), none repeating an overlay's id.
  private var serials = GeneratedSerials(prefix: Overlay.generatedIDPrefix)

  /// Adds an overlay; throws (adding nothing) for invalid geometry or an id already used.
  mutating func add(_ options: OverlayOptions) throws(MapError) -> Overlay {
    var options = options
    options.shape = try options.shape.validated()
    try options.checkTexts()
    try options.checkStrokeWidth()
    if let id = options.id, overlays.contains(where: { $0.id == id }) {
      throw .invalidValue(
        field: "overlay.id", value: "\"\(id)\"", reason: "is already used by another overlay on this map")
    }
    let overlay = Overlay(serial: serials.take().serial, options: options)
    overlays.append(overlay)
    if let id = options.id { _ = serials.note(id) }
    return overlay
  }

  /// Removes an overlay; false if it is not here.
  mutating func remove(_ overlay: Overlay) -> Bool {
    guard let index = overlays.firstIndex(where: { $0 === overlay }) else { return false }
    overlays.remove(at: index)
    return true
  }

  /// Removes every overlay; returns them.
  mutating func removeAll() -> [Overlay] {
    defer { overlays.removeAll() }
    return overlays
  }

  /// The topmost tappable overlay at `point` (R15): highest z-index, then most recently added.
  func topmost(at point: Point, projection: Projection, tolerance: Double) -> Overlay? {
    guard let coordinate = projection.coordinate(for: point) else { return nil }
    var best: Overlay?
    for overlay in overlays where overlay.tappable {
      if let current = best, overlay.zIndex < current.zIndex { continue }
      if OverlayHitTest.hits(
        overlay.shape, at: point, coordinate: coordinate, projection: projection, tolerance: tolerance)
      {
        best = overlay
      }
    }
    return best
  }
}
