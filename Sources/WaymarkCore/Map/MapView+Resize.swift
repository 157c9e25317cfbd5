extension MapView {
  // MARK: A resized view (R47)

  /// Resizes the view, as `GMSMapView` does when its frame changes (a rotation to
  /// landscape): the camera keeps its target at the centre of the (padded) view, and the
  /// projection, the visible region and the tiles follow the new size (R47). Once the
  /// first tiles are requested, a resize is reported as an explicit move to the same camera
  /// (R24): will_move(false), did_change_camera_position with the new visible region, the
  /// new tiles' rendering, and idle_at_camera_position at the next frame; while an
  /// animation or a gesture moves the camera, its next frame reports the camera instead.
  /// Before that (time 0) it only configures the map; the same size changes nothing.
  ///
  /// Throws, changing nothing, for a negative, non-finite or too large side.
  public func setViewSize(_ size: Size) throws(MapError) {
    let size = try size.validated("size")
    guard size != viewSize else { return }
    viewSize = size
    guard tiles.visible != nil else { return }
    guard !cameraController.animator.isActive, cameraController.gesture == nil else {
      updateTiles()
      return
    }
    willMove(gesture: false)
    emitCameraChange()
    if !policy.idleOnNextFrame { emitIdle() }
    scheduleFrame()
  }
}
