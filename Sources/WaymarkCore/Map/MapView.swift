import Synchronization

/// A headless `GMSMapView`: markers, overlays, an info window, a camera, and a delegate that
/// hears the 23 callbacks, all on a virtual clock.
///
/// Input (taps, long presses, drags, gestures) enters through methods of this class; hit
/// testing turns it into callbacks; the delegate's answers decide the default behaviour
/// (selection, info window, camera); every callback and state change is recorded in
/// ``trace``. Time moves only through ``advance(by:interruption:)`` and ``settle(limit:interruption:)``, so the same
/// input gives the same trace on every machine.
///
/// A façade over parts that each keep their own state and invariants and make no callbacks
/// (docs/architecture.md): the marker store, the selection, the camera controller, the
/// tiles, the overlays, the base map's places, and the callback emitter. The map's
/// extensions (one file per concern) run the rules and make the callbacks.
///
/// Not thread-safe: confine a map, its markers and overlays to one thread.
public final class MapView {
  /// Numbers maps in the process, so a marker knows which map generated its id.
  private static let mapCounter = Atomic<UInt32>(0)
  /// The map's time. Timers scheduled on it run during ``advance(by:interruption:)`` and ``settle(limit:interruption:)``.
  public let clock: VirtualClock
  /// How the map behaves where Google is silent (R33 presets and every [chosen] rule).
  public let policy: BehaviorPolicy
  /// Seconds of virtual time ``settle(limit:interruption:)`` waits at most when not told (600 by default).
  public var settleTimeLimit = 600.0
  /// The most frames, timers and tile loads one ``advance(by:interruption:)`` or
  /// ``settle(limit:interruption:)`` runs (100,000 by default, at least 1): a timer that
  /// re-arms itself at once, or a long animation at a high frame rate, stops there with an
  /// error instead of running for as long as virtual time allows.
  public var taskLimit = 100_000 {
    didSet { taskLimit = max(taskLimit, 1) }
  }

  // The parts below make no callbacks, so nothing can reach one of them while one of its
  // methods runs (the map calls the delegate between its accesses, never inside one): their
  // exclusivity is unchecked, as the dynamic checks of these four would add 34% to a tap
  // (hit_test_1m.tap, instructions in tap(at:)) and 12% to adding a marker (add_markers_1m:
  // 1,169 instructions an addMarker against 1,041; callgrind).
  /// The delegate, the observers, the trace and the callbacks running.
  @exclusivity(unchecked) var callbacks: CallbackEmitter
  /// The markers: slots, ids, spatial index, icon extent.
  @exclusivity(unchecked) var store: MarkerStore
  /// The selected marker, the shown window, the changes waiting on a resolution (R9-R13).
  @exclusivity(unchecked) var selection = SelectionState()
  /// The camera, the view, and what moves on the frames.
  @exclusivity(unchecked) var cameraController: CameraController
  /// The tiles shown and loading (R31).
  var tiles = TileTracker()
  /// The overlays (R15).
  var overlayStore = OverlayStore()
  /// Points of interest, feature layers, capabilities, my location.
  var places = MapPlaces()
  /// The live icon views and the last frame drawn (R34-R36).
  var liveViews = LiveViewRegistry()

  /// Creates a map with a camera, a view size and a behaviour policy.
  ///
  /// Throws when the camera has a non-finite value or an invalid target, when the size is
  /// negative or not finite, or when the policy's settings are unusable. The camera is
  /// clamped (R20-R22). The first tiles are requested at time 0 (R31), and the new map goes
  /// idle then unless the camera already moves (R53).
  public init(
    camera: CameraPosition, viewSize: Size = Size(width: 390, height: 844), policy: BehaviorPolicy = .ios,
    clock: VirtualClock = VirtualClock(), trace: TraceLog = TraceLog()
  ) throws(MapError) {
    self.policy = try policy.validated()
    let viewSize = try viewSize.validated("size")
    cameraController = CameraController(
      camera: try camera.validated("camera"), viewSize: viewSize, minZoom: policy.minZoom, maxZoom: policy.maxZoom)
    self.clock = clock
    callbacks = CallbackEmitter(trace: trace)
    store = MarkerStore(origin: MapView.mapCounter.add(1, ordering: .relaxed).newValue)
    store.belongs(to: self)
    clock.schedule(at: clock.now) { [weak self] in self?.becomeIdleFirstTime() }
  }

  // The markers someone else holds keep their serials (their ids) when the map goes away.
  deinit { store.detachMarkersAtDefaults(all: false) }

  /// Every callback and state change, in order (shared when several maps run in one script).
  public var trace: TraceLog { callbacks.trace }

  /// Hears the callbacks: a ``MapViewDelegate``, or any ``DelegateEventHandler`` (the plugin
  /// host). Held weakly, like `GMSMapView.delegate`.
  public var delegate: DelegateEventHandler? {
    get { callbacks.delegate }
    set { callbacks.delegate = newValue }
  }

  /// This map's number in the process (the origin of the marker ids it generates).
  var mapNumber: UInt32 { store.origin }

  // MARK: Time

  /// Moves virtual time forward by `seconds`, running frames, timers and tile loads on the way.
  ///
  /// Throws ``MapError/stopped(action:time:reason:pending:)``, leaving the map at the time
  /// reached, once it has run ``taskLimit`` tasks (a timer that re-arms itself), when the
  /// trace is full (``TraceLog/capacity``), or when `interruption` (asked before each task)
  /// gives a reason to stop: the caller's own budget ran out.
  public func advance(by seconds: Double, interruption: (() -> String?)? = nil) throws(MapError) {
    try requireNoCallbackRunning("advance")
    try MapError.requireNonNegative(seconds, "advance.seconds")
    guard seconds <= VirtualClock.longestStep else {
      throw .invalidValue(
        field: "advance.seconds", value: formatNumber(seconds), reason: "is more than 1e9 (about 31 years)")
    }
    let end = clock.now + seconds
    try runTasks(dueBy: end, action: "advance", interruption: interruption)
    clock.advance(to: end)
    drawFrames(through: end)
  }

  /// Advances time until nothing is pending: the camera idle, no drag, no animation, no timer,
  /// tiles loaded, no live view owed a frame (R34). Throws if work is still pending after `limit` seconds of virtual time
  /// (``settleTimeLimit`` when nil): an animation that re-arms itself forever; the map is
  /// left at that time. Stops like ``advance(by:interruption:)`` after ``taskLimit`` tasks
  /// or when `interruption` gives a reason.
  public func settle(limit: Double? = nil, interruption: (() -> String?)? = nil) throws(MapError) {
    try requireNoCallbackRunning("settle")
    let limit = limit ?? settleTimeLimit
    try MapError.requireNonNegative(limit, "settle.limit")
    guard limit <= VirtualClock.longestStep else {
      throw .invalidValue(
        field: "settle.limit", value: formatNumber(limit), reason: "is more than 1e9 (about 31 years)")
    }
    let deadline = clock.now + limit
    try runTasks(dueBy: deadline, action: "settle", interruption: interruption)
    if !clock.hasPendingTasks { drawOwedFrame() }
    guard !clock.hasPendingTasks else {
      clock.advance(to: deadline)
      throw .didNotSettle(limit: limit, pending: pendingDescription)
    }
  }

  /// Runs the clock's tasks due by `time` one at a time, at most ``taskLimit`` of them,
  /// asking `interruption` before each.
  private func runTasks(dueBy time: Double, action: String, interruption: (() -> String?)?) throws(MapError) {
    var count = 0
    while let next = clock.nextTaskTime, next <= time {
      if trace.isFull {
        throw .stopped(
          action: action, time: clock.now,
          reason: "the trace holds \(trace.capacity) records, the most it keeps", pending: pendingDescription)
      }
      if let reason = interruption?() {
        throw .stopped(action: action, time: clock.now, reason: reason, pending: pendingDescription)
      }
      guard count < taskLimit else {
        throw .stopped(
          action: action, time: clock.now,
          reason: "it ran \(taskLimit) frames and timers, the most one call runs (advance in steps)",
          pending: pendingDescription)
      }
      count += 1
      drawFrames(through: next)
      _ = clock.runNextTask(dueBy: time)
    }
  }

  /// Whether the camera is idle and nothing waits on the clock.
  public var isSettled: Bool { !clock.hasPendingTasks }

  /// What still waits, for messages.
  var pendingDescription: String {
    var parts = cameraController.pendingWork(tilesLoading: tiles.loading != nil)
    let others =
      clock.pendingTaskCount - (cameraController.frameTask == nil ? 0 : 1) - (tiles.loading == nil ? 0 : 1)
    if others > 0 { parts.append("\(others) timer(s)") }
    return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
  }

  /// Describes the first broken invariant of any part, or nil when all hold: for tests, which
  /// check it between inputs.
  package func checkInvariants() -> String? {
    store.checkInvariants() ?? selection.checkInvariants() ?? callbacks.checkInvariants()
      ?? cameraController.checkInvariants(clock: clock)
      ?? (selection.selectedMarker.map { $0.map === self ? nil : "the selected marker is not on the map" } ?? nil)
      ?? callbacks.observers.lazy.compactMap { ($0.observer as? ClusterManager)?.checkInvariants() }.first
  }
}
