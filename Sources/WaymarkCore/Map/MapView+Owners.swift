/// The map as its markers and overlays see it (``Marker/map`` and ``Overlay/map``): the
/// markers and overlays are declared below the map and name it only through `MarkerOwner` and
/// `OverlayOwner`, which the map alone conforms to.
extension MapView: MarkerOwner, OverlayOwner {
  func place(ofShared marker: Marker, at position: Coordinate) -> (serial: Int32, slot: Int32)? {
    store.place(ofShared: marker, at: position)
  }

  func overlayDidChange(_ overlay: Overlay) { notify(.overlaysChanged) }
}

extension Marker {
  /// The map the marker is on, or nil once removed (R2). Only the map sets it, after its
  /// store gave the marker extras of its own if it leaves its map or changes maps.
  public internal(set) var map: MapView? {
    get { owner as? MapView }
    set { owner = newValue }
  }
}

extension Overlay {
  /// The map it is on, nil once removed.
  public internal(set) var map: MapView? {
    get { owner as? MapView }
    set { owner = newValue }
  }
}
