import Synchronization

/// A headless `GMSMapView`: markers, overlays, an info window, a camera, and a delegate that
/// hears the 23 callbacks, all on a virtual clock.
///
/// Input (taps, long presses, drags, gestures) enters through methods of this class; hit
/// testing turns it into callbacks; the delegate's answers decide the default behaviour
/// (selection, info window, camera); every callback and state change is recorded in
/// ``trace``. Time moves only through ``advance(by:)`` and ``settle(limit:)``, so the same
/// input gives the same trace on every machine.
///
/// Not thread-safe: confine a map, its markers and overlays to one thread.
public final class MapView {
  /// Numbers maps in the process, so a marker knows which map generated its id.
  private static let mapCounter = Atomic<UInt32>(0)
  /// This map's number in the process.
  let mapNumber = MapView.mapCounter.add(1, ordering: .relaxed).newValue
  /// The map's time. Timers scheduled on it run during ``advance(by:)`` and ``settle(limit:)``.
  public let clock: VirtualClock
  /// Every callback and state change, in order (shared when several maps run in one script).
  public let trace: TraceLog
  /// How the map behaves where Google is silent (R33 presets and every [chosen] rule).
  public let policy: BehaviorPolicy
  /// Which gestures the user may make (R25); code-driven moves are never disabled.
  public var settings = GestureSettings()

  /// Hears the callbacks: a ``MapViewDelegate``, or any ``DelegateEventHandler`` (the plugin
  /// host). Held weakly, like `GMSMapView.delegate`.
  public weak var delegate: DelegateEventHandler?

  /// The camera now, clamped (R20-R22).
  public internal(set) var camera: CameraPosition {
    didSet { if camera != oldValue { notify(.cameraMoved) } }
  }
  /// The view's size in points; 390 x 844 by default.
  public private(set) var viewSize: Size {
    didSet { if viewSize != oldValue { notify(.viewChanged) } }
  }
  /// Insets that move the visual centre and shrink the visible region (R29).
  public private(set) var padding = EdgeInsets.zero {
    didSet { if padding != oldValue { notify(.viewChanged) } }
  }
  /// The smallest zoom the camera may reach (R21).
  public internal(set) var minZoom: Double
  /// The largest zoom the camera may reach (R21).
  public internal(set) var maxZoom: Double

  // Markers, by slot; slots are reused after removal.
  var markerSlots: [Marker?] = []
  var slotAddOrder: [Int] = []
  var freeSlots: [Int32] = []
  var markerCount = 0
  var nextMarkerSerial = 1
  var nextAddOrder = 0
  /// Markers with an explicit id, and markers created by another map, by id.
  var markersByID: [String: Marker] = [:]
  /// The slot of each marker this map created, by serial - 1 (-1 when not on the map):
  /// generated ids (`marker-N`) resolve without a dictionary entry per marker.
  var slotOfSerial: [Int32] = []
  var markerIndex = SpatialIndex()
  /// How far icons reach from their anchors (hit-testing's search area).
  var iconExtent = IconExtent()
  /// A reused buffer for the spatial index's candidates during a tap.
  var hitCandidates: [Int32] = []

  /// The overlays, in the order they were added.
  public internal(set) var overlays: [Overlay] = [] {
    didSet { if !(overlays.isEmpty && oldValue.isEmpty) { notify(.overlaysChanged) } }
  }
  var nextOverlaySerial = 1
  /// The points of interest of the base map (R17).
  public internal(set) var pointsOfInterest: [PointOfInterest] = [] {
    didSet { notify(.placesChanged) }
  }
  /// The data-driven styling layers whose features can be tapped (callback 23).
  public internal(set) var featureLayers: [FeatureLayer] = []

  /// The selected marker, whose window (if any) is shown (R9-R13).
  public internal(set) var selectedMarker: Marker? {
    didSet { if selectedMarker !== oldValue { notify(.selectionChanged) } }
  }
  /// The shown info window, if any (R9: at most one).
  public internal(set) var infoWindow: InfoWindow? {
    didSet { if infoWindow != nil || oldValue != nil { notify(.selectionChanged) } }
  }

  // Motion.
  let animator = CameraAnimator()
  var gesture: CameraGesture?
  var drag: MarkerDrag?
  var markerAnimations: [ObjectIdentifier: MarkerAnimation] = [:]
  var idlePending = false
  var frameTask: VirtualClock.TaskID?

  // Re-entrancy: the callbacks running now, and changes deferred while a window resolves (R13).
  var runningCallbacks: [DelegateCallback] = []
  /// Host code that, like a callback, may change the map but not send it input (a plugin's
  /// `setup`, `teardown`, ...), innermost last.
  var inputRefusals: [String] = []
  var isResolvingInfoWindow = false
  var deferredChanges: [() -> Void] = []

  // Tiles (R31), my location (R32), capabilities.
  var tiles = TileState()
  /// Whether the my-location dot and button are shown (R32); off by default.
  public var isMyLocationEnabled = false {
    didSet { if isMyLocationEnabled != oldValue { notify(.placesChanged) } }
  }
  /// The simulated device location (R32); nil until known.
  public var myLocation: Coordinate? {
    didSet { if myLocation != oldValue { notify(.placesChanged) } }
  }
  /// Who hears every change of what the map shows (``MapObserver``), held weakly.
  var observers: [WeakObserver] = []
  /// What the map can do (callback 22).
  public internal(set) var capabilities: MapCapabilities = []

  /// Creates a map with a camera, a view size and a behaviour policy.
  ///
  /// Throws when the camera has a non-finite value or an invalid target, when the size is
  /// negative or not finite, or when the policy's settings are unusable. The camera is
  /// clamped (R20-R22). The first tiles are requested at time 0 (R31).
  public init(
    camera: CameraPosition, viewSize: Size = Size(width: 390, height: 844), policy: BehaviorPolicy = .ios,
    clock: VirtualClock = VirtualClock(), trace: TraceLog = TraceLog()
  ) throws(MapError) {
    self.trace = trace
    self.policy = try policy.validated()
    self.viewSize = try viewSize.validated("size")
    self.clock = clock
    minZoom = policy.minZoom
    maxZoom = policy.maxZoom
    self.camera = try camera.validated("camera").clamped(minZoom: policy.minZoom, maxZoom: policy.maxZoom)
    clock.schedule(at: clock.now) { [weak self] in self?.updateTiles() }
  }

  /// The projection of the current camera (R29).
  public var projection: Projection { Projection(camera: camera, viewSize: viewSize, padding: padding) }

  /// Changes the view's size. Throws for negative or non-finite sides.
  public func setViewSize(_ size: Size) throws(MapError) {
    viewSize = try size.validated("size")
    if tiles.visible != nil { updateTiles() }
  }

  /// Changes the padding (R29): the camera's target moves to the new visual centre. Before
  /// the first tiles are requested (time 0), this only configures the map.
  public func setPadding(_ insets: EdgeInsets) throws(MapError) {
    padding = try insets.validated("padding")
    if tiles.visible != nil { updateTiles() }
  }

  // MARK: Callbacks

  /// Records a callback, then makes it (if there is a delegate) and returns its answer; the
  /// record of a veto or content callback gets the result and who decided it.
  @discardableResult
  func emit(_ event: DelegateEvent) -> CallbackAnswer {
    let callback = event.callback
    let index = trace.isEnabled ? trace.append(TraceRecord(event, at: clock.now)) : nil
    var answer = CallbackAnswer.none
    if let delegate {
      runningCallbacks.append(callback)
      answer = delegate.mapView(self, receive: event)
      runningCallbacks.removeLast()
    }
    if let index {
      switch callback.composition {
      case .notification: break
      case .veto: recordAnswer(index, result: .bool(answer.isHandled), decidedBy: answer.decidedBy)
      case .content:
        recordAnswer(index, result: answer.content == nil ? .null : .string("content"), decidedBy: answer.decidedBy)
      }
    }
    return answer
  }

  private func recordAnswer(_ index: Int, result: TraceValue, decidedBy source: String?) {
    trace.update(index) { record in
      record.result = result
      record.plugin = source.map(TraceValue.string) ?? .null
    }
  }

  /// Records a runtime record (not a callback).
  func note(_ event: String, _ fill: (inout TraceRecord) -> Void = { _ in }) {
    guard trace.isEnabled else { return }
    var record = TraceRecord(time: clock.now, event: event)
    fill(&record)
    trace.append(record)
  }

  /// Throws if input arrives while a callback (or code run with ``refusingInput(during:_:)``)
  /// is running.
  func requireNoCallbackRunning(_ action: String) throws(MapError) {
    if let running = runningCallbacks.last {
      throw .reentrantInput(action: action, callback: running.name)
    }
    if let running = inputRefusals.last {
      throw .reentrantInput(action: action, callback: running)
    }
  }

  /// Runs `body` refusing input as during a callback: code a delegate runs outside the
  /// callbacks (a plugin's `setup` or `teardown`) may change the map, but input from it
  /// (taps, gestures, time) would re-enter the map's event loop. `name` is what the error
  /// says input came from inside of.
  public func refusingInput<R, E: Error>(during name: String, _ body: () throws(E) -> R) throws(E) -> R {
    inputRefusals.append(name)
    defer { inputRefusals.removeLast() }
    return try body()
  }

  /// Adds a line to the trace, as a plugin's `print` or a script's log does.
  public func log(_ message: String, source: String? = nil) {
    note("log") { record in
      record.message = MapView.capped(message)
      if let source { record.plugin = .string(source) }
    }
  }

  /// The longest message a log record keeps, in bytes of UTF-8.
  public static let longestLogMessage = 64 << 10

  /// `message`, cut to ``longestLogMessage`` bytes with a note of how much was cut.
  public static func capped(_ message: String) -> String {
    let bytes = message.utf8.count
    guard bytes > longestLogMessage else { return message }
    var kept = Substring(message)
    while kept.utf8.count > longestLogMessage {
      kept = kept.dropLast(max(1, (kept.utf8.count - longestLogMessage) / 4))
    }
    return kept + "… (\(bytes - kept.utf8.count) more bytes)"
  }

  /// Adds a warning to the trace (for example, selecting a marker of another map, R11).
  public func warn(_ message: String) {
    note("warning") { $0.message = message }
  }

  // MARK: Time

  /// Moves virtual time forward by `seconds`, running frames, timers and tile loads on the way.
  public func advance(by seconds: Double) throws(MapError) {
    try requireNoCallbackRunning("advance")
    try MapError.requireNonNegative(seconds, "advance.seconds")
    guard seconds <= VirtualClock.longestStep else {
      throw .invalidValue(
        field: "advance.seconds", value: formatNumber(seconds), reason: "is more than 1e9 (about 31 years)")
    }
    clock.advance(to: clock.now + seconds)
  }

  /// Seconds of virtual time ``settle(limit:)`` waits at most when not told (600 by default).
  public var settleTimeLimit = 600.0

  /// Advances time until nothing is pending: the camera idle, no drag, no animation, no timer,
  /// tiles loaded. Throws if work is still pending after `limit` seconds of virtual time
  /// (``settleTimeLimit`` when nil): an animation that re-arms itself forever; the map is
  /// left at that time.
  public func settle(limit: Double? = nil) throws(MapError) {
    try requireNoCallbackRunning("settle")
    let limit = limit ?? settleTimeLimit
    try MapError.requireNonNegative(limit, "settle.limit")
    guard limit <= VirtualClock.longestStep else {
      throw .invalidValue(
        field: "settle.limit", value: formatNumber(limit), reason: "is more than 1e9 (about 31 years)")
    }
    let deadline = clock.now + limit
    while let next = clock.nextTaskTime {
      guard next <= deadline else {
        clock.advance(to: deadline)
        throw .didNotSettle(limit: limit, pending: pendingDescription)
      }
      _ = clock.runNextTask()
    }
  }

  /// Whether the camera is idle and nothing waits on the clock.
  public var isSettled: Bool { !clock.hasPendingTasks }

  /// What still waits, for messages.
  var pendingDescription: String {
    var parts: [String] = []
    if animator.isActive { parts.append("camera animation") }
    if gesture != nil { parts.append("gesture") }
    if drag != nil { parts.append("drag") }
    if !markerAnimations.isEmpty { parts.append("\(markerAnimations.count) marker animation(s)") }
    if tiles.loading != nil { parts.append("tiles loading") }
    let others = clock.pendingTaskCount - (frameTask == nil ? 0 : 1) - (tiles.loading == nil ? 0 : 1)
    if others > 0 { parts.append("\(others) timer(s)") }
    return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
  }
}

/// Which gestures the user may make (R25), like `GMSUISettings`. Disabled gestures are
/// ignored; code-driven camera moves are never disabled.
public struct GestureSettings: Hashable, Sendable {
  /// Pan.
  public var scrollGestures = true
  /// Pinch and double tap.
  public var zoomGestures = true
  /// Two-finger rotation.
  public var rotateGestures = true
  /// Two-finger tilt.
  public var tiltGestures = true
  /// Creates settings with every gesture enabled.
  public init() {}
}
