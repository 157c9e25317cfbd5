extension MapView {
  // MARK: Overlays (R15)

  /// The overlays, in the order they were added.
  public var overlays: [Overlay] { overlayStore.overlays }

  /// Adds an overlay. Throws (adding nothing) for invalid geometry.
  @discardableResult
  public func addOverlay(_ options: OverlayOptions) throws(MapError) -> Overlay {
    let overlay = try overlayStore.add(options)
    overlay.map = self
    notify(.overlaysChanged)
    return overlay
  }

  /// Removes an overlay. Throws if it is not on this map.
  public func remove(_ overlay: Overlay) throws(MapError) {
    guard overlay.map === self, overlayStore.remove(overlay) else { throw .notOnThisMap(what: "overlay \(overlay.id)") }
    notify(.overlaysChanged)
    overlay.map = nil
  }

  /// The topmost tappable overlay at `point` (R15): highest z-index, then most recently added.
  package func topmostOverlay(at point: Point) -> Overlay? {
    overlayStore.topmost(at: point, projection: projection, tolerance: policy.lineTapTolerance)
  }
}
