/// A user gesture (R25), for ``MapView/perform(_:duration:)``: the camera follows the
/// fingers, from where it was, over the gesture's duration.
public enum Gesture: Hashable, Sendable {
  /// A pan: the finger moves `dx` points right and `dy` down and the content under it
  /// follows, so the camera moves the other way (R25): the opposite of `scrollBy`.
  case pan(dx: Double, dy: Double)
  /// A pinch: zoom by `zoomBy` levels about `around` (the view's centre if nil).
  case pinch(zoomBy: Double, around: Point?)
  /// A two-finger rotation by `degrees` clockwise: the content turns clockwise on the
  /// screen, so the camera's bearing decreases by `degrees` (R25), as on a device.
  case rotate(degrees: Double)
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
}

/// A user gesture in progress (R25): the camera follows the finger from the gesture's start
/// camera, linearly over its duration.
struct CameraGesture {
  /// What the fingers do (a double tap is the pinch it makes: ``Gesture/motion``).
  let kind: Gesture
  let start: CameraPosition
  let startTime: Double
  let duration: Double

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
    case .rotate(let degrees): update = .change(CameraChange(bearing: start.bearing - degrees * progress))
    case .tilt(let degrees): update = .change(CameraChange(tilt: start.tilt + degrees * progress))
    case .doubleTap(let point): update = .zoomBy(progress, around: point)  // never stored: see Gesture.motion
    }
    return (try? update.destination(from: projection, zoomRange: zoomRange)) ?? start
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
