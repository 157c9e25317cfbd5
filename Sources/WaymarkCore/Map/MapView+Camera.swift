extension MapView {
  // MARK: The camera and the view (R20-R29)

  /// The camera now, clamped (R20-R22).
  public internal(set) var camera: CameraPosition {
    get { cameraController.camera }
    set { assign(\.camera, newValue, telling: .cameraMoved) }
  }

  /// The view's size in points; 390 x 844 by default.
  public internal(set) var viewSize: Size {
    get { cameraController.viewSize }
    set { assign(\.viewSize, newValue, telling: .viewChanged) }
  }

  /// Insets that move the visual centre and shrink the visible region (R29).
  public private(set) var padding: EdgeInsets {
    get { cameraController.padding }
    set { assign(\.padding, newValue, telling: .viewChanged) }
  }

  /// Sets a field of the camera controller; observers hear `change` if the value changed.
  private func assign<Value: Equatable>(
    _ field: WritableKeyPath<CameraController, Value>, _ value: Value, telling change: MapChange
  ) {
    let old = cameraController[keyPath: field]
    cameraController[keyPath: field] = value
    if value != old { notify(change) }
  }

  /// The smallest zoom the camera may reach (R21).
  public var minZoom: Double { cameraController.minZoom }
  /// The largest zoom the camera may reach (R21).
  public var maxZoom: Double { cameraController.maxZoom }

  /// Which gestures the user may make (R25); code-driven moves are never disabled.
  public var settings: GestureSettings {
    get { cameraController.settings }
    set { assign(\.settings, newValue, telling: .viewChanged) }  // the compass is drawn (R69)
  }

  /// The projection of the current camera (R29).
  public var projection: Projection { cameraController.projection }

  /// Whether the camera is moving (an animation or a gesture) or owes its idle callback.
  public var isCameraMoving: Bool { cameraController.isMoving }

  /// Changes the padding (R29): the camera's target moves to the new visual centre. Before
  /// the first tiles are requested (time 0), this only configures the map.
  public func setPadding(_ insets: EdgeInsets) throws(MapError) {
    padding = try insets.validated("padding")
    if tiles.visible != nil { updateTiles() }
  }

  /// Moves the camera at once (R24): will_move(false), did_change_camera_position once, and
  /// idle_at_camera_position at the next frame. Stops running animations and gestures.
  /// Throws (changing nothing) when the update has a non-finite or invalid value.
  public func moveCamera(_ update: CameraUpdate) throws(MapError) {
    jump(to: heldByTargetBounds(try update.destination(from: projection, zoomRange: cameraController.zoomRange)))
  }

  /// The bounds gestures keep the camera's target in (R66), as
  /// `GMSMapView.cameraTargetBounds`: nil (the default) lets it go anywhere.
  public var cameraTargetBounds: CoordinateBounds? { cameraController.targetBounds }

  /// Sets the bounds gestures keep the camera's target in, nil to lift them (R66). A gesture
  /// that would take the target out stops at the edge; a camera outside them is left where it
  /// is until a gesture moves it. Moves made by code are not held unless the policy says so
  /// (`targetBoundsHoldCodeMoves`, the web preset), and then a camera outside moves in at
  /// once (R24). Throws for the empty bounds, changing nothing.
  public func setCameraTargetBounds(_ bounds: CoordinateBounds?) throws(MapError) {
    if let bounds, !bounds.isValid {
      throw .invalidValue(field: "cameraTargetBounds", value: "empty", reason: "is not valid bounds")
    }
    cameraController.targetBounds = bounds
    let held = heldByTargetBounds(camera)
    if held != camera { jump(to: held) }
  }

  /// `camera` with its target clamped into the target bounds when the policy holds moves made
  /// by code there (R66); `camera` itself otherwise.
  func heldByTargetBounds(_ camera: CameraPosition) -> CameraPosition {
    guard policy.targetBoundsHoldCodeMoves, let bounds = cameraController.targetBounds else { return camera }
    var held = camera
    held.target = bounds.clamp(camera.target)
    return held
  }

  /// Sets the whole camera at once (R24); values Google clamps are clamped (R20-R22).
  package func setCamera(_ camera: CameraPosition) throws(MapError) {
    try moveCamera(.setCamera(camera))
  }

  /// Animates the camera (R23, R26, R27): will_move(false) now, then
  /// did_change_camera_position every frame with the final position included, then
  /// idle_at_camera_position once all channels stop. Only the channels the update moves are
  /// animated; a running animation of those channels is replaced from where it is. An update
  /// that moves nothing reports one final frame at the next frame tick, like any other.
  ///
  /// - Parameters:
  ///   - update: where the camera goes (a target, a zoom, a bearing, a tilt, a fit).
  ///   - duration: seconds; the policy's default (0.3 s) when nil.
  ///   - completion: runs when this animation ends: true if it reached its end, false if it
  ///     was replaced or interrupted by a gesture or an explicit move.
  public func animate(_ update: CameraUpdate, duration: Double? = nil, completion: ((Bool) -> Void)? = nil)
    throws(MapError)
  {
    if let duration {
      try MapError.requireDuration(duration, "animate.duration")
    }
    _ = try update.destination(from: projection, zoomRange: cameraController.zoomRange)
    startAnimation(update, duration: duration ?? policy.animationDuration, completion: completion)
  }

  /// Sets the zoom range (R21) and clamps the current zoom into it at once, with the usual
  /// callbacks (R24). Throws if `min` > `max` or either is not finite; values beyond
  /// `CameraPosition/zoomLimits` (0...30) are clamped to them, as Google clamps.
  public func setMinMaxZoom(min: Double, max: Double) throws(MapError) {
    let clamped = try cameraController.setZoomRange(min: min, max: max)
    if clamped != camera { jump(to: clamped) }
  }

  /// Starts an animation of an update known to be valid.
  func startAnimation(_ update: CameraUpdate, duration: Double, completion: ((Bool) -> Void)?) {
    guard let reached = try? update.destination(from: projection, zoomRange: cameraController.zoomRange)
    else { return }
    let destination = heldByTargetBounds(reached)
    cameraController.gesture = nil
    let animator = cameraController.animator
    let channels = update.channels(from: camera, to: destination)
    var replaced = policy.independentCameraChannels ? [] : animator.stopAll()
    let targetWorld =
      channels.contains(.target) ? cameraController.worldPoints.worldPoint(destination.target) : projection.targetWorld
    animator.start(
      channels: channels, from: projection, to: destination, targetWorld: targetWorld, at: clock.now,
      duration: duration, easing: policy.easing, completion: completion, due: &replaced)
    willMove(gesture: false)
    scheduleFrame()
    for due in replaced { due.completion(due.finished) }
  }

  /// An explicit, instantaneous move (R24).
  func jump(to destination: CameraPosition) {
    let interrupted = cameraController.animator.stopAll()
    cameraController.gesture = nil
    willMove(gesture: false)
    camera = destination
    emitCameraChange()
    if !policy.idleOnNextFrame { emitIdle() }
    scheduleFrame()
    for due in interrupted { due.completion(due.finished) }
  }

  /// will_move, and marks that idle_at and snapshot_ready are owed (R54).
  func willMove(gesture: Bool) {
    cameraController.idlePending = true
    tiles.cameraMoved()
    emit(.willMove(gesture: gesture))
  }

  /// did_change_camera_position with the current camera; the visible tiles follow (R31).
  func emitCameraChange() {
    emit(.didChangeCameraPosition(camera))
    updateTiles()
  }

  /// idle_at_camera_position, once the camera has stopped (R23-R25), then a snapshot if due.
  func emitIdle() {
    cameraController.idlePending = false
    emit(.idleAtCameraPosition(camera))
    notify(.cameraIdle)
    snapshotIfReady()
  }

  /// Animates the camera's target to the marker (R10.4), zoom, bearing and tilt unchanged.
  func centerCamera(on marker: Marker) {
    startAnimation(.change(CameraChange(target: marker.position)), duration: policy.animationDuration, completion: nil)
  }

  /// The bearing flat markers turn with on the screen: the camera's, unless the policy says
  /// they do not follow it (R4).
  package var flatMarkerBearing: Double { policy.flatMarkersFollowBearing ? camera.bearing : 0 }

  /// How flat markers are foreshortened on the tilted ground (R44): the cosine of the tilt,
  /// unless the policy draws them as billboards (R4).
  package var flatMarkerForeshortening: Double {
    policy.flatMarkersFollowBearing ? projection.groundForeshortening : 1
  }
}
