extension MapView {
  // MARK: Tiles and snapshots (R31)

  /// Recomputes the visible tiles; a new set starts rendering (did_start_tile_rendering,
  /// unless already rendering) and finishes after the policy's latency
  /// (did_finish_tile_rendering), then snapshot_ready once the camera is idle.
  func updateTiles() {
    guard tiles.show(TileSet(projection: projection)) else { return }
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

  /// snapshot_ready once the tiles are loaded and the camera is idle, once per tile set and
  /// camera move (R31, R54).
  func snapshotIfReady() {
    guard tiles.takeSnapshot(cameraMoving: isCameraMoving) else { return }
    emit(.snapshotReady)
  }

  /// The new map's first tiles (R31) and its first idle_at_camera_position (R53), unless a
  /// move made before time first passed already owes its own.
  func becomeIdleFirstTime() {
    updateTiles()
    if !isCameraMoving { emitIdle() }
  }
}
