extension MapView {
  // MARK: Camera (R20-R28)

  /// Moves the camera at once (R24): will_move(false), did_change_camera_position once, and
  /// idle_at_camera_position at the next frame. Stops running animations and gestures.
  /// Throws (changing nothing) when the update has a non-finite or invalid value.
  public func moveCamera(_ update: CameraUpdate) throws(MapError) {
    jump(to: try update.destination(from: projection, zoomRange: minZoom...maxZoom))
  }

  /// Sets the whole camera at once (R24); values Google clamps are clamped (R20-R22).
  public func setCamera(_ camera: CameraPosition) throws(MapError) {
    try moveCamera(.setCamera(camera))
  }

  /// Animates the camera (R23, R26, R27): will_move(false) now, then
  /// did_change_camera_position every frame with the final position included, then
  /// idle_at_camera_position once all channels stop. Only the channels the update moves are
  /// animated; a running animation of those channels is replaced from where it is.
  ///
  /// - Parameters:
  ///   - duration: seconds; the policy's default (0.3 s) when nil.
  ///   - completion: runs when this animation ends: true if it reached its end, false if it
  ///     was replaced or interrupted by a gesture or an explicit move.
  public func animate(_ update: CameraUpdate, duration: Double? = nil, completion: ((Bool) -> Void)? = nil)
    throws(MapError)
  {
    if let duration {
      try MapError.requireNonNegative(duration, "animate.duration")
    }
    _ = try update.destination(from: projection, zoomRange: minZoom...maxZoom)
    startAnimation(update, duration: duration ?? policy.animationDuration, completion: completion)
  }

  /// Sets the zoom range (R21) and clamps the current zoom into it at once, with the usual
  /// callbacks (R24). Throws if `min` > `max` or either is not finite; values beyond
  /// ``CameraPosition/zoomLimits`` (0...30) are clamped to them, as Google clamps.
  public func setMinMaxZoom(_ min: Double, _ max: Double) throws(MapError) {
    try MapError.requireFinite(min, "min_zoom")
    try MapError.requireFinite(max, "max_zoom")
    let limits = CameraPosition.zoomLimits
    let min = Swift.min(Swift.max(min, limits.lowerBound), limits.upperBound)
    let max = Swift.min(Swift.max(max, limits.lowerBound), limits.upperBound)
    guard min <= max else {
      throw .invalidValue(
        field: "min_zoom", value: formatNumber(min), reason: "is greater than max_zoom \(formatNumber(max))")
    }
    minZoom = min
    maxZoom = max
    let clamped = camera.clamped(minZoom: min, maxZoom: max)
    if clamped != camera { jump(to: clamped) }
  }

  /// Starts an animation of an update known to be valid.
  func startAnimation(_ update: CameraUpdate, duration: Double, completion: ((Bool) -> Void)?) {
    guard let destination = try? update.destination(from: projection, zoomRange: minZoom...maxZoom) else { return }
    stopGesture()
    let channels = update.channels(from: camera, to: destination)
    let stopped = policy.independentCameraChannels ? [] : animator.stopAll()
    let replaced =
      stopped
      + animator.start(
        channels: channels, from: camera, to: destination, at: clock.now, duration: duration, easing: policy.easing,
        completion: completion)
    willMove(gesture: false)
    scheduleFrame()
    for due in replaced { due.completion(due.finished) }
  }

  /// An explicit, instantaneous move (R24).
  func jump(to destination: CameraPosition) {
    let interrupted = animator.stopAll()
    stopGesture()
    willMove(gesture: false)
    camera = destination
    emitCameraChange()
    if !policy.idleOnNextFrame { emitIdle() }
    scheduleFrame()
    for due in interrupted { due.completion(due.finished) }
  }

  /// will_move, and marks that idle_at is owed.
  func willMove(gesture: Bool) {
    idlePending = true
    emit(.willMove(gesture: gesture))
  }

  /// did_change_camera_position with the current camera; the visible tiles follow (R31).
  func emitCameraChange() {
    let camera = self.camera
    emit(.didChangeCameraPosition(camera))
    updateTiles()
  }

  /// Whether the camera is moving (an animation or a gesture) or owes its idle callback.
  public var isCameraMoving: Bool { animator.isActive || gesture != nil || idlePending }

  // MARK: Frames

  /// Whether anything needs frames.
  var needsFrames: Bool {
    animator.isActive || gesture != nil || idlePending || drag != nil || !markerAnimations.isEmpty
  }

  /// Schedules the next frame tick (frames fall on multiples of 1 / frame rate), if needed
  /// and not yet scheduled.
  func scheduleFrame() {
    guard frameTask == nil, needsFrames else { return }
    let rate = policy.frameRate
    let next = ((clock.now * rate + 1e-6).rounded(.down) + 1) / rate
    frameTask = clock.schedule(at: next) { [weak self] in self?.frame() }
  }

  /// One frame: drags and marker animations move, the camera takes its gesture's or its
  /// animations' values (did_change_camera_position), completions run, and idle_at fires
  /// once everything has stopped (R23-R27).
  func frame() {
    frameTask = nil
    let now = clock.now
    stepDrag(at: now)
    stepMarkerAnimations(at: now)
    if gesture != nil || animator.isActive {
      var next = camera
      if let active = gesture {
        next = active.camera(at: now, in: self)
        if active.isFinished(at: now) { gesture = nil }
      }
      let stepped = animator.step(next, at: now)
      camera = stepped.camera.clamped(minZoom: minZoom, maxZoom: maxZoom)
      emitCameraChange()
      for due in stepped.due { due.completion(due.finished) }
    }
    if idlePending && gesture == nil && !animator.isActive { emitIdle() }
    scheduleFrame()
  }

  /// idle_at_camera_position, once the camera has stopped (R23-R25), then a snapshot if due.
  private func emitIdle() {
    idlePending = false
    let camera = self.camera
    emit(.idleAtCameraPosition(camera))
    notify(.cameraIdle)
    snapshotIfReady()
  }
}
