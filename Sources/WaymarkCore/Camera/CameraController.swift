/// What moves on a map, and when the next frame comes: the camera and the view it projects
/// into, the zoom range, the animator's channels, a user gesture, a marker drag and marker
/// animations, and the frame task. A part of ``MapView`` that makes no callbacks: the map
/// asks it what changes at a frame and makes the callbacks itself (MapView+Frames.swift).
///
/// Invariants (``checkInvariants()``): the camera is within the zoom range and clamped
/// (R20-R22); whenever something needs frames (``needsFrames``) a frame task is pending
/// (one may stay pending for nothing, and then finds nothing to do); the camera "moves"
/// while an animation or a gesture runs, or while its idle callback is owed.
struct CameraController {
  /// The camera now, clamped (R20-R22).
  var camera: CameraPosition { didSet { updateProjection() } }
  /// The view's size in points.
  var viewSize: Size { didSet { updateProjection() } }
  /// Insets that move the visual centre and shrink the visible region (R29).
  var padding = EdgeInsets.zero { didSet { updateProjection() } }
  /// The projection of the current camera (R29), made again whenever camera, view size or
  /// padding change: a tap's hit test reads it, and camera changes are rarer than reads.
  private(set) var projection: Projection
  /// The smallest zoom the camera may reach (R21).
  private(set) var minZoom: Double
  /// The largest zoom the camera may reach (R21).
  private(set) var maxZoom: Double
  /// Which gestures the user may make (R25).
  var settings = GestureSettings()
  /// The bounds gestures keep the camera's target in (R66); nil: anywhere.
  var targetBounds: CoordinateBounds?
  /// The camera's animated channels (R26, R27).
  let animator = CameraAnimator()
  /// A user gesture in progress (R25).
  var gesture: CameraGesture?
  /// A marker being dragged (R18).
  var drag: MarkerDrag?
  /// Marker animations (S3, R46), by marker.
  var markerAnimations: [ObjectIdentifier: MarkerAnimation] = [:]
  /// Markers playing their appear animation (R45), by marker, with when they were added.
  var appearing: [ObjectIdentifier: (marker: Marker, start: Double)] = [:]

  /// The marker animations in order of their markers' serials (the order they step and end
  /// in). Each serial is read once: a marker at its map's defaults asks its map's store.
  var markerAnimationsInSerialOrder: [(key: ObjectIdentifier, animation: MarkerAnimation)] {
    let entries = Array(markerAnimations)
    // Sorted as (serial, place) pairs: moving whole animations in the sort cost more than it.
    let order = entries.indices.map { (serial: entries[$0].value.marker.serial, place: $0) }
      .sorted { $0.serial < $1.serial }
    return order.map { (key: entries[$0.place].key, animation: entries[$0.place].value) }
  }
  /// Whether idle_at_camera_position is owed (R23-R25).
  var idlePending = false
  /// The next frame's clock task, if scheduled.
  var frameTask: VirtualClock.TaskID?
  /// The world point of the coordinate projected last by the tap path (the centring's
  /// target, the shown window's marker).
  var worldPoints = WorldPointMemo()

  /// A controller for a valid camera and view, with the policy's zoom range.
  init(camera: CameraPosition, viewSize: Size, minZoom: Double, maxZoom: Double) {
    self.minZoom = minZoom
    self.maxZoom = maxZoom
    self.viewSize = viewSize
    self.camera = camera.clamped(minZoom: minZoom, maxZoom: maxZoom)
    projection = Projection(camera: self.camera, viewSize: viewSize, padding: .zero)
  }

  /// Makes ``projection`` again from camera, view size and padding.
  private mutating func updateProjection() {
    projection = Projection(camera: camera, viewSize: viewSize, padding: padding)
  }

  /// The zoom range.
  var zoomRange: ClosedRange<Double> { minZoom...maxZoom }

  /// Whether the camera is moving (an animation or a gesture) or owes its idle callback.
  var isMoving: Bool { animator.isActive || gesture != nil || idlePending }

  /// Whether anything needs frames.
  var needsFrames: Bool { isMoving || drag != nil || !markerAnimations.isEmpty || !appearing.isEmpty }

  /// Sets the zoom range (R21), values beyond ``CameraPosition/zoomLimits`` clamped to
  /// them; returns the camera clamped into the new range. Throws (changing nothing) if
  /// either is not finite or `min` > `max`.
  mutating func setZoomRange(min: Double, max: Double) throws(MapError) -> CameraPosition {
    try MapError.requireFinite(min, "minZoom")
    try MapError.requireFinite(max, "maxZoom")
    let limits = CameraPosition.zoomLimits
    let min = Swift.min(Swift.max(min, limits.lowerBound), limits.upperBound)
    let max = Swift.min(Swift.max(max, limits.lowerBound), limits.upperBound)
    guard min <= max else {
      throw .invalidRelation(
        field: "minZoom", value: formatNumber(min), relation: "is greater than", other: "maxZoom",
        otherValue: formatNumber(max))
    }
    minZoom = min
    maxZoom = max
    return camera.clamped(minZoom: min, maxZoom: max)
  }

  /// The time of the frame after `now`: frames fall on multiples of 1 / `rate` (R27).
  static func nextFrameTime(after now: Double, rate: Double) -> Double {
    ((now * rate + 1e-6).rounded(.down) + 1) / rate
  }

  /// The camera this frame, if a gesture or an animation moves it, with the animations'
  /// completions that fell due; the gesture ends if it is finished.
  mutating func stepCamera(at now: Double) -> (camera: CameraPosition, due: [CameraAnimator.DueCompletion])? {
    guard gesture != nil || animator.isActive else { return nil }
    var next = camera
    if let active = gesture {
      next = active.camera(at: now, viewSize: viewSize, padding: padding, zoomRange: zoomRange)
      if let targetBounds { next.target = targetBounds.clamp(next.target) }  // R66
      if active.isFinished(at: now) { gesture = nil }
    }
    let stepped = animator.step(next, at: now)
    return (stepped.camera.clamped(minZoom: minZoom, maxZoom: maxZoom), stepped.due)
  }

  /// What still waits, for messages.
  func pendingWork(tilesLoading: Bool) -> [String] {
    var parts: [String] = []
    if animator.isActive { parts.append("camera animation") }
    if gesture != nil { parts.append("gesture") }
    if drag != nil { parts.append("drag") }
    if !markerAnimations.isEmpty { parts.append("\(markerAnimations.count) marker animation(s)") }
    if !appearing.isEmpty { parts.append("\(appearing.count) appear animation(s)") }
    if tilesLoading { parts.append("tiles loading") }
    return parts
  }

  /// Describes the first broken invariant, or nil when all hold (tests).
  func checkInvariants(clock: VirtualClock) -> String? {
    if camera != camera.clamped(minZoom: minZoom, maxZoom: maxZoom) { return "the camera \(camera) is not clamped" }
    if needsFrames && !(frameTask.map(clock.isPending) ?? false) { return "frames are needed but none is scheduled" }
    if gesture != nil && !isMoving { return "a gesture runs but the camera does not move" }
    return nil
  }
}

/// Which gestures the user may make (R25), like `GMSUISettings`. Disabled gestures are
/// ignored; code-driven camera moves are never disabled.
public struct GestureSettings: Hashable, Sendable {
  /// Whether a pan moves the camera.
  public var scrollGestures = true
  /// Whether a pinch or a double tap zooms.
  public var zoomGestures = true
  /// Whether a two-finger rotation turns the map.
  public var rotateGestures = true
  /// Whether a two-finger tilt tilts the map.
  public var tiltGestures = true
  /// Whether zooms and rotations turn about the fingers and follow them when they move
  /// (`GMSUISettings.allowScrollGesturesDuringRotateOrZoom`, R67); when off, they turn about
  /// the view's centre and the fingers' movement is ignored. On by default.
  public var allowScrollGesturesDuringRotateOrZoom = true
  /// Creates settings with every gesture enabled.
  package init() {}
}
