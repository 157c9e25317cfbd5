extension MapView {
  // MARK: Frames (R18, R23-R27, S3)

  /// Schedules the next frame tick (frames fall on multiples of 1 / frame rate), if needed
  /// and not yet scheduled.
  func scheduleFrame() {
    guard cameraController.frameTask == nil, cameraController.needsFrames else { return }
    let next = CameraController.nextFrameTime(after: clock.now, rate: policy.frameRate)
    cameraController.frameTask = clock.schedule(at: next) { [weak self] in self?.frame() }
  }

  /// One frame: drags and marker animations move, the camera takes its gesture's or its
  /// animations' values (did_change_camera_position), completions run, and idle_at fires
  /// once everything has stopped (R23-R27).
  func frame() {
    cameraController.frameTask = nil
    let now = clock.now
    stepDrag(at: now)
    stepMarkerAnimations(at: now)
    stepAppearing(at: now)
    if let stepped = cameraController.stepCamera(at: now) {
      camera = stepped.camera
      emitCameraChange()
      for due in stepped.due { due.completion(due.finished) }
    }
    if cameraController.idlePending && cameraController.gesture == nil && !cameraController.animator.isActive {
      emitIdle()
    }
    scheduleFrame()
  }

  /// Starts a drag (no selection change, no long-press callback: R18).
  func beginDrag(_ marker: Marker, to destination: Coordinate, duration: Double) {
    if let running = cameraController.drag { endDrag(running.marker) }
    emit(.didBeginDraggingMarker(marker))
    guard marker.map === self else { return }
    marker.keepOwnPlace()
    cameraController.drag = MarkerDrag(
      marker: marker, from: Mercator.worldPoint(marker.position), to: destination, start: clock.now,
      duration: duration, nextSample: clock.now)
    if duration == 0 && destination == marker.position {
      cameraController.drag = nil
      endDrag(marker)
      return
    }
    scheduleFrame()
  }

  /// Moves the dragged marker for this frame: did_drag_marker at the drag sampling rate, and
  /// did_end_dragging_marker at the end.
  func stepDrag(at now: Double) {
    guard var active = cameraController.drag else { return }
    guard active.marker.map === self else {
      cameraController.drag = nil
      return
    }
    let finished = now >= active.start + active.duration
    guard finished || now + 1e-9 >= active.nextSample else { return }
    active.nextSample = now + 1 / policy.dragFrameRate
    cameraController.drag = active
    let progress = active.duration > 0 ? min((now - active.start) / active.duration, 1) : 1
    let marker = active.marker
    marker.move(
      to: progress >= 1 ? active.to : Mercator.interpolate(from: active.from, to: active.to, fraction: progress))
    emit(.didDragMarker(marker))
    if progress >= 1, cameraController.drag?.marker === marker {
      cameraController.drag = nil
      endDrag(marker)
    }
  }

  /// did_end_dragging_marker.
  func endDrag(_ marker: Marker) {
    emit(.didEndDraggingMarker(marker))
  }
}
