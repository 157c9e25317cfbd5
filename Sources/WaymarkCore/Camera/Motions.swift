/// A user gesture in progress (R25): the camera follows the finger from the gesture's start
/// camera, linearly over its duration.
struct CameraGesture {
  /// What the fingers do.
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
    case .pan(let dx, let dy): update = .scrollBy(dx: dx * progress, dy: dy * progress)
    case .pinch(let delta, let point): update = .zoomBy(delta * progress, around: point)
    case .rotate(let degrees): update = .change(CameraChange(bearing: start.bearing + degrees * progress))
    case .tilt(let degrees): update = .change(CameraChange(tilt: start.tilt + degrees * progress))
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

/// A marker position animation (S3).
struct MarkerAnimation {
  let marker: Marker
  let from: WorldPoint
  let to: Coordinate
  let start: Double
  let duration: Double
  let easing: Easing
  let completion: ((Bool) -> Void)?
}
