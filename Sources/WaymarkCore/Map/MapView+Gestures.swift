extension MapView {
  // MARK: Gestures (R25)

  /// A user gesture (R25): will_move(true), the camera following the fingers frame by frame,
  /// idle_at when they stop. Stops running animations; a gesture the map's ``settings``
  /// disable is ignored with a warning.
  ///
  /// - Parameters:
  ///   - gesture: what the fingers do (a pan, a pinch, a rotation, a tilt, a double tap).
  ///   - duration: how long the fingers move, in seconds; 0.5 by default (a double tap takes
  ///     the policy's animation duration).
  ///   - scrolling: how far, in points, the fingers move while they pinch or rotate: the
  ///     content follows, as in a pan (R67). Only pinches and rotations scroll.
  /// - Throws: from inside a callback, or for a value out of its range (the field named).
  public func perform(_ gesture: Gesture, duration: Double? = nil, scrolling: Point? = nil) throws(MapError) {
    let enabled: Bool
    switch gesture {
    case .pan(let dx, let dy):
      try MapError.require(dx, in: -Point.largestMagnitude...Point.largestMagnitude, "pan.dx")
      try MapError.require(dy, in: -Point.largestMagnitude...Point.largestMagnitude, "pan.dy")
      enabled = settings.scrollGestures
    case .pinch(let delta, let point):
      try MapError.requireFinite(delta, "pinch.zoomBy")
      if let point { _ = try point.validated("pinch.point") }
      enabled = settings.zoomGestures
    case .rotate(let degrees, let point):
      try MapError.require(degrees, in: -Point.largestMagnitude...Point.largestMagnitude, "rotate.degrees")
      if let point { _ = try point.validated("rotate.point") }
      enabled = settings.rotateGestures
    case .tilt(let degrees):
      try MapError.require(degrees, in: -Point.largestMagnitude...Point.largestMagnitude, "tilt.degrees")
      enabled = settings.tiltGestures
    case .doubleTap(let point):
      _ = try point.validated("doubleTap")
      try requireNoCallbackRunning("doubleTap")
      notify(.input(MapInput(kind: .doubleTap, point: point)))
      enabled = settings.zoomGestures
    }
    if let scrolling {
      switch gesture {
      case .pinch, .rotate: _ = try scrolling.validated("\(gesture.name).scrolling")
      case .pan, .tilt, .doubleTap:
        throw .invalidValue(
          field: "\(gesture.name).scrolling", value: "\(scrolling)", reason: "applies to pinches and rotations")
      }
    }
    let seconds: Double
    if case .doubleTap = gesture { seconds = duration ?? policy.animationDuration } else { seconds = duration ?? 0.5 }
    try startGesture(gesture, duration: seconds, scrolling: scrolling, enabled: enabled)
  }

  /// A pan (``perform(_:duration:)``).
  package func pan(dx: Double, dy: Double, duration: Double = 0.5) throws(MapError) {
    try perform(.pan(dx: dx, dy: dy), duration: duration)
  }

  /// A pinch (``perform(_:duration:scrolling:)``).
  package func pinch(
    zoomBy delta: Double, around point: Point? = nil, duration: Double = 0.5, scrolling: Point? = nil
  ) throws(MapError) {
    try perform(.pinch(zoomBy: delta, around: point), duration: duration, scrolling: scrolling)
  }

  /// A two-finger rotation (``perform(_:duration:scrolling:)``).
  package func rotate(
    by degrees: Double, around point: Point? = nil, duration: Double = 0.5, scrolling: Point? = nil
  ) throws(MapError) {
    try perform(.rotate(degrees: degrees, around: point), duration: duration, scrolling: scrolling)
  }

  /// A two-finger tilt (``perform(_:duration:)``).
  package func tilt(by degrees: Double, duration: Double = 0.5) throws(MapError) {
    try perform(.tilt(degrees: degrees), duration: duration)
  }

  /// A double tap (``perform(_:duration:)``).
  package func doubleTap(at point: Point) throws(MapError) {
    try perform(.doubleTap(at: point))
  }

  private func startGesture(_ gesture: Gesture, duration: Double, scrolling: Point?, enabled: Bool)
    throws(MapError)
  {
    try requireNoCallbackRunning(gesture.name)
    try MapError.requireDuration(duration, "\(gesture.name).duration")
    guard enabled else {
      warn("\(gesture.traceName): the gesture is disabled in the map's settings; ignored (R25)")
      return
    }
    let interrupted = cameraController.animator.stopAll()
    // R67: with scrolling during rotate or zoom off, zooms and rotations turn about the
    // centre and fingers that move while they pinch or rotate move nothing.
    let offCentre = settings.allowScrollGesturesDuringRotateOrZoom
    var motion = CameraGesture(
      kind: offCentre ? gesture.motion : gesture.centred, start: camera, startTime: clock.now, duration: duration)
    if offCentre, let scrolling { motion.scroll = scrolling }
    cameraController.gesture = motion
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
    try MapError.requireDuration(duration, "drag.duration")
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
