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

  /// The tile index of a position in tile units, within ±`limit` (a projection that is not
  /// finite, which validated input never gives, counts as tile 0 rather than trapping).
  private static func tile(_ position: Double, limit: Double) -> Int {
    guard position.isFinite else { return 0 }
    return Int(min(max(position, -limit), limit).rounded(.down))
  }
}

/// Tile loading and snapshot state (R31).
struct TileState {
  var visible: TileSet?
  var loading: VirtualClock.TaskID?
  var snapshotSent = false
}

extension MapView {
  // MARK: Tiles and snapshots (R31)

  /// Recomputes the visible tiles; a new set starts rendering (did_start_tile_rendering,
  /// unless already rendering) and finishes after the policy's latency
  /// (did_finish_tile_rendering), then snapshot_ready once the camera is idle.
  func updateTiles() {
    let set = TileSet(projection: projection)
    guard set != tiles.visible else { return }
    tiles.visible = set
    tiles.snapshotSent = false
    if let loading = tiles.loading {
      clock.cancel(loading)
    } else {
      emit(.didStartTileRendering)
    }
    tiles.loading = clock.schedule(at: clock.now + policy.tileLoadLatency) { [weak self] in
      guard let self else { return }
      tiles.loading = nil
      emit(.didFinishTileRendering)
      snapshotIfReady()
    }
  }

  /// snapshot_ready once per tile set, when tiles are loaded and the camera is idle (R31).
  func snapshotIfReady() {
    guard tiles.loading == nil, tiles.visible != nil, !tiles.snapshotSent, !isCameraMoving else { return }
    tiles.snapshotSent = true
    emit(.snapshotReady)
  }

  // MARK: Places, features, capabilities

  /// Adds a point of interest to the base map (R17).
  public func addPointOfInterest(_ poi: PointOfInterest) throws(MapError) {
    var poi = poi
    poi.location = try poi.location.validated("poi.location")
    try TextLimits.check(poi.placeID, atMost: TextLimits.name, "poi.place_id")
    try TextLimits.check(poi.name, atMost: TextLimits.name, "poi.name")
    pointsOfInterest.append(poi)
  }

  /// Adds a data-driven styling layer whose features can be tapped (callback 23).
  public func addFeatureLayer(_ layer: FeatureLayer) throws(MapError) {
    try TextLimits.check(layer.name, atMost: TextLimits.name, "feature_layer.name")
    for (f, feature) in layer.features.enumerated() {
      try TextLimits.check(feature.placeID, atMost: TextLimits.name, "feature_layer.features[\(f + 1)].place_id")
      for (index, point) in feature.boundary.enumerated() {
        _ = try point.validated("feature_layer.features[\(f + 1)].boundary[\(index + 1)]")
      }
    }
    featureLayers.append(layer)
  }

  /// Changes the map's capabilities; did_change_map_capabilities fires if they differ.
  public func setCapabilities(_ new: MapCapabilities) {
    guard new != capabilities else { return }
    capabilities = new
    emit(.didChangeMapCapabilities(new))
  }

  // MARK: Overlays (R15)

  /// Adds an overlay. Throws (adding nothing) for invalid geometry.
  @discardableResult
  public func addOverlay(_ options: OverlayOptions) throws(MapError) -> Overlay {
    var options = options
    options.shape = try options.shape.validated()
    try options.checkTexts()
    if let id = options.id, overlays.contains(where: { $0.id == id }) {
      throw .invalidValue(
        field: "overlay.id", value: "\"\(id)\"", reason: "is already used by another overlay on this map")
    }
    let overlay = Overlay(serial: nextOverlaySerial, options: options)
    nextOverlaySerial += 1
    overlay.map = self
    overlays.append(overlay)
    return overlay
  }

  /// Removes an overlay. Throws if it is not on this map.
  public func remove(_ overlay: Overlay) throws(MapError) {
    guard overlay.map === self, let index = overlays.firstIndex(where: { $0 === overlay }) else {
      throw .notOnThisMap(what: "overlay \(overlay.id)")
    }
    overlays.remove(at: index)
    overlay.map = nil
  }
}
