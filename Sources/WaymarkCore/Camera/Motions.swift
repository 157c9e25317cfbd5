/// A user gesture (R25), for ``MapView/perform(_:duration:scrolling:)``: the camera follows the
/// fingers, from where it was, over the gesture's duration.
public enum Gesture: Hashable, Sendable {
  /// A pan: the finger moves `dx` points right and `dy` down and the content under it
  /// follows, so the camera moves the other way (R25): the opposite of `scrollBy`.
  case pan(dx: Double, dy: Double)
  /// A pinch: zoom by `zoomBy` levels about `around` (the view's centre if nil).
  case pinch(zoomBy: Double, around: Point?)
  /// A two-finger rotation by `degrees` clockwise about `around` (the view's centre if nil):
  /// the content turns clockwise on the screen, so the camera's bearing decreases by
  /// `degrees` (R25), as on a device; the ground under `around` stays there (R67).
  case rotate(degrees: Double, around: Point? = nil)
  /// A two-finger tilt by `degrees` (clamped to the zoom's maximum, R22).
  case tilt(degrees: Double)
  /// A double tap: zoom in by one level about the point.
  case doubleTap(at: Point)

  /// The name in errors (`pan`, `doubleTap`).
  var name: String {
    switch self {
    case .pan: "pan"
    case .pinch: "pinch"
    case .rotate: "rotate"
    case .tilt: "tilt"
    case .doubleTap: "doubleTap"
    }
  }

  /// The name in trace records, snake_case as the trace spells names (`double_tap`).
  var traceName: String {
    if case .doubleTap = self { return "double_tap" }
    return name
  }

  /// What the camera does: a double tap is a pinch by one level about its point.
  var motion: Gesture {
    if case .doubleTap(let point) = self { return .pinch(zoomBy: 1, around: point) }
    return self
  }

  /// This gesture about the view's centre: what a zoom or rotation becomes when
  /// `allowScrollGesturesDuringRotateOrZoom` is off (R67).
  var centred: Gesture {
    switch self {
    case .pinch(let delta, _): .pinch(zoomBy: delta, around: nil)
    case .rotate(let degrees, _): .rotate(degrees: degrees, around: nil)
    case .doubleTap: motion.centred
    case .pan, .tilt: self
    }
  }
}

/// A user gesture in progress (R25): the camera follows the finger from the gesture's start
/// camera, linearly over its duration.
struct CameraGesture {
  /// What the fingers do (a double tap is the pinch it makes: ``Gesture/motion``).
  let kind: Gesture
  let start: CameraPosition
  let startTime: Double
  let duration: Double
  /// How far the fingers move while they pinch or rotate (R67): the content under them
  /// follows, as in a pan.
  var scroll = Point(x: 0, y: 0)

  /// Whether the fingers have stopped at `time`.
  func isFinished(at time: Double) -> Bool { time >= startTime + duration }

  /// The camera at `time`, in a view of `viewSize` and `padding`, zoom in `zoomRange`.
  func camera(at time: Double, viewSize: Size, padding: EdgeInsets, zoomRange: ClosedRange<Double>)
    -> CameraPosition
  {
    let progress = duration > 0 ? min(max((time - startTime) / duration, 0), 1) : 1
    let projection = Projection(camera: start, viewSize: viewSize, padding: padding)
    let update: CameraUpdate
    switch kind {
    case .pan(let dx, let dy):
      // The ground plane's distance, as before R51 made scrollBy follow the tilted screen.
      let (x, y) = (-dx * progress, -dy * progress)
      update =
        x == 0 && y == 0
        ? .scrollBy(dx: 0, dy: 0)
        : .change(CameraChange(target: CameraUpdate.groundScroll(from: projection, dx: x, dy: y)))
    case .pinch(let delta, let point): update = .zoomBy(delta * progress, around: point)
    case .rotate(let degrees, _): update = .change(CameraChange(bearing: start.bearing - degrees * progress))
    case .tilt(let degrees): update = .change(CameraChange(tilt: start.tilt + degrees * progress))
    case .doubleTap(let point): update = .zoomBy(progress, around: point)  // never stored: see Gesture.motion
    }
    guard var camera = try? update.destination(from: projection, zoomRange: zoomRange) else { return start }
    if case .rotate(_, let point?) = kind, let fixed = projection.coordinate(for: point) {
      // R67: the ground under the fingers stays under them; the centre moves around it.
      let turned = Projection(camera: camera, viewSize: viewSize, padding: padding)
      if let now = turned.point(for: fixed),
        let moved = try? CameraUpdate.scrollBy(dx: now.x - point.x, dy: now.y - point.y).destination(
          from: turned, zoomRange: zoomRange)
      {
        camera = moved
      }
    }
    if scroll.x != 0 || scroll.y != 0 {
      // R67: fingers that move while they pinch or rotate drag the content along, as a pan.
      let moved = Projection(camera: camera, viewSize: viewSize, padding: padding)
      camera.target = CameraUpdate.groundScroll(from: moved, dx: -scroll.x * progress, dy: -scroll.y * progress)
    }
    return camera
  }
}

/// A marker being dragged (R18): the finger moves its ground anchor from `from` to `to`.
struct MarkerDrag {
  let marker: Marker
  let from: WorldPoint
  let to: Coordinate
  let start: Double
  let duration: Double
  var nextSample: Double
}
