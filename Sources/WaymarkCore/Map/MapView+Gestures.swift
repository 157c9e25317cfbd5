extension MapView {
  // MARK: Gestures (R25)

  /// A pan: the map follows the finger by `dx`, `dy` points over `duration` seconds.
  public func pan(dx: Double, dy: Double, duration: Double = 0.5) throws(MapError) {
    try MapError.require(dx, in: -Point.largestMagnitude...Point.largestMagnitude, "pan.dx")
    try MapError.require(dy, in: -Point.largestMagnitude...Point.largestMagnitude, "pan.dy")
    try startGesture(.pan(dx: dx, dy: dy), duration: duration, enabled: settings.scrollGestures, name: "pan")
  }

  /// A pinch: zoom by `zoomBy` levels about `point` (the view's centre if nil).
  public func pinch(zoomBy delta: Double, around point: Point? = nil, duration: Double = 0.5) throws(MapError) {
    try MapError.requireFinite(delta, "pinch.zoom_by")
    if let point { _ = try point.validated("pinch.point") }
    try startGesture(
      .pinch(zoomBy: delta, around: point), duration: duration, enabled: settings.zoomGestures, name: "pinch")
  }

  /// A two-finger rotation by `degrees` clockwise.
  public func rotate(by degrees: Double, duration: Double = 0.5) throws(MapError) {
    try MapError.require(degrees, in: -Point.largestMagnitude...Point.largestMagnitude, "rotate.degrees")
    try startGesture(.rotate(degrees: degrees), duration: duration, enabled: settings.rotateGestures, name: "rotate")
  }

  /// A two-finger tilt by `degrees` (clamped to the zoom's maximum, R22).
  public func tilt(by degrees: Double, duration: Double = 0.5) throws(MapError) {
    try MapError.require(degrees, in: -Point.largestMagnitude...Point.largestMagnitude, "tilt.degrees")
    try startGesture(.tilt(degrees: degrees), duration: duration, enabled: settings.tiltGestures, name: "tilt")
  }

  /// A double tap: zoom in by one level about `point`, over the default animation duration.
  public func doubleTap(at point: Point) throws(MapError) {
    _ = try point.validated("double_tap")
    try requireNoCallbackRunning("double_tap")
    notify(.input(MapInput(kind: .doubleTap, point: point)))
    try startGesture(
      .pinch(zoomBy: 1, around: point), duration: policy.animationDuration, enabled: settings.zoomGestures,
      name: "double_tap")
  }

  private func startGesture(_ kind: CameraGesture.Kind, duration: Double, enabled: Bool, name: String) throws(MapError)
  {
    try requireNoCallbackRunning(name)
    try MapError.requireNonNegative(duration, "\(name).duration")
    guard enabled else {
      warn("\(name): the gesture is disabled in the map's settings; ignored (R25)")
      return
    }
    let interrupted = cameraController.animator.stopAll()
    cameraController.gesture = CameraGesture(kind: kind, start: camera, startTime: clock.now, duration: duration)
    willMove(gesture: true)
    scheduleFrame()
    for due in interrupted { due.completion(due.finished) }
  }

  // MARK: Drags (R18)

  /// Drags a marker: a long press on its icon and a finger moving to `destination` over
  /// `duration` seconds. If the topmost marker there is draggable: did_begin_dragging_marker,
  /// did_drag_marker at the drag sampling rate with the position already updated, and
  /// did_end_dragging_marker (R18). Otherwise it is a long press (R19).
  public func drag(_ marker: Marker, to destination: Coordinate, duration: Double = 1) throws(MapError) {
    try requireNoCallbackRunning("drag")
    let destination = try destination.validated("drag.to")
    try MapError.requireNonNegative(duration, "drag.duration")
    let point = try iconPoint(of: marker, action: "drag")
    if let window = infoWindow, let frame = infoWindowFrame, frame.contains(point), window.marker != nil {
      try longPress(at: point)
      return
    }
    guard let hit = topmostMarker(at: point), hit.draggable else {
      try longPress(at: point)
      return
    }
    notify(.input(MapInput(kind: .drag, point: point)))
    beginDrag(hit, to: destination, duration: duration)
  }
}
