/// A user gesture in progress (R25): the camera follows the finger from the gesture's start
/// camera, linearly over its duration.
struct CameraGesture {
  enum Kind {
    case pan(dx: Double, dy: Double)
    case pinch(zoomBy: Double, around: Point?)
    case rotate(degrees: Double)
    case tilt(degrees: Double)
  }

  let kind: Kind
  let start: CameraPosition
  let startTime: Double
  let duration: Double

  func isFinished(at time: Double) -> Bool { time >= startTime + duration }

  /// The camera at `time`.
  func camera(at time: Double, in map: MapView) -> CameraPosition {
    let progress = duration > 0 ? min(max((time - startTime) / duration, 0), 1) : 1
    let projection = Projection(camera: start, viewSize: map.viewSize, padding: map.padding)
    let update: CameraUpdate
    switch kind {
    case .pan(let dx, let dy): update = .scrollBy(dx: dx * progress, dy: dy * progress)
    case .pinch(let delta, let point): update = .zoomBy(delta * progress, around: point)
    case .rotate(let degrees): update = .change(CameraChange(bearing: start.bearing + degrees * progress))
    case .tilt(let degrees): update = .change(CameraChange(tilt: start.tilt + degrees * progress))
    }
    return (try? update.destination(from: projection, zoomRange: map.minZoom...map.maxZoom)) ?? start
  }
}

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
    let interrupted = animator.stopAll()
    gesture = CameraGesture(kind: kind, start: camera, startTime: clock.now, duration: duration)
    willMove(gesture: true)
    scheduleFrame()
    for due in interrupted { due.completion(due.finished) }
  }

  /// Ends a running gesture where it is (an animation or an explicit move took over).
  func stopGesture() { gesture = nil }
}
