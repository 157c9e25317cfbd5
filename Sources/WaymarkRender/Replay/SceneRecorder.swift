import WaymarkCore

/// The timeline of one map's scene, written as it happens (see ``ReplayRecorder``): the
/// scene's values come from a ``SceneBuilder``, as a picture's do.
final class SceneRecorder {
  /// The map recorded (weak: the run owns it).
  private(set) weak var map: MapView?
  /// The index of the scene's first record in the run's trace.
  let traceStart: Int
  private let title: String
  private var builder: SceneBuilder
  private var time = 0.0
  private var events: [SceneEvent] = []
  private var keyframes: [SceneKeyframe] = []
  /// How many events a keyframe follows after: four per marker it holds, and 256.
  private var nextKeyframe = 0

  // The state as drawn, to detect changes and write keyframes.
  private var markers: [ObjectIdentifier: SceneMarker] = [:]
  private var nextNumber = 0
  private var nextOrder = 0
  private var selected: Int?
  private var window: Int?
  private var shownWindow: (marker: ObjectIdentifier?, place: String?, layout: InfoWindowLayout)?
  private var overlays = 0
  private var places = 0

  init(map: MapView, number: Int, traceStart: Int) {
    self.map = map
    self.traceStart = traceStart
    title = "map \(number) (\(map.policy.name))"
    builder = SceneBuilder(for: map)
    time = Self.microseconds(map.clock.now)
    for marker in map.markers { add(marker, on: map) }
    selected = self.number(of: map.selectedMarker)
    window = windowIndex(of: map)
    overlays = builder.overlays(of: map)
    places = builder.places(of: map)
    writeKeyframe(map)
  }

  // MARK: Changes

  func record(_ change: MapChange) {
    guard let map else { return }
    // A keyframe is the state before this change: seeking to a time before it must not
    // show it.
    if events.count >= nextKeyframe { writeKeyframe(map) }
    time = Self.microseconds(map.clock.now)
    var event = SceneEvent(t: time)
    switch change {
    case .markerAdded(let marker):
      event.marker = add(marker, on: map)
    case .markerRemoved(let marker):
      guard let removed = markers.removeValue(forKey: ObjectIdentifier(marker)) else { return }
      event.removed = removed.n
    case .markerMoved(let marker):
      guard var entry = markers[ObjectIdentifier(marker)] else { return }
      (entry.lat, entry.lng) = (marker.position.latitude, marker.position.longitude)
      markers[ObjectIdentifier(marker)] = entry
      event.moved = SceneMove(n: entry.n, lat: entry.lat, lng: entry.lng)
    case .markerChanged(let marker):
      guard let entry = markers[ObjectIdentifier(marker)] else { return }
      let changed = builder.marker(marker, number: entry.n, order: entry.order, on: map)
      markers[ObjectIdentifier(marker)] = changed
      event.marker = changed
    case .selectionChanged:
      let newSelected = number(of: map.selectedMarker), newWindow = windowIndex(of: map)
      guard newSelected != selected || newWindow != window else { return }
      (selected, window) = (newSelected, newWindow)
      event.selection = SceneSelection(marker: newSelected, window: newWindow)
    case .cameraMoved:
      event.camera = SceneBuilder.camera(of: map)
    case .cameraIdle:
      event.moment = .idle
    case .overlaysChanged:
      overlays = builder.overlays(of: map)
      event.overlays = overlays
    case .placesChanged:
      places = builder.places(of: map)
      event.places = places
    case .viewChanged:
      event.view = SceneBuilder.view(of: map)
    case .input(let input):
      event.touch = SceneTouch(kind: input.kind.rawValue, x: input.point.x, y: input.point.y)
    }
    events.append(event)
  }

  /// A picture was taken now.
  func markPicture() {
    guard let map else { return }
    time = Self.microseconds(map.clock.now)
    var event = SceneEvent(t: time)
    event.moment = .picture
    events.append(event)
  }

  // MARK: State

  /// Starts drawing `marker`: the next number, last in the order of addition.
  @discardableResult
  private func add(_ marker: Marker, on map: MapView) -> SceneMarker {
    let entry = builder.marker(marker, number: nextNumber, order: nextOrder, on: map)
    nextNumber += 1
    nextOrder += 1
    markers[ObjectIdentifier(marker)] = entry
    return entry
  }

  private func number(of marker: Marker?) -> Int? {
    marker.flatMap { markers[ObjectIdentifier($0)]?.n }
  }

  /// The number of the shown window in the library (nil: none), drawing it if new.
  private func windowIndex(of map: MapView) -> Int? {
    guard let shown = map.infoWindow else {
      shownWindow = nil
      return nil
    }
    let identity = (marker: shown.marker.map(ObjectIdentifier.init), place: shown.pointOfInterest?.placeID)
    if let last = shownWindow, last.marker == identity.marker, last.place == identity.place,
      last.layout == shown.layout
    {
      return window
    }
    shownWindow = (identity.marker, identity.place, shown.layout)
    return builder.window(of: map, marker: number(of: shown.marker))
  }

  private func writeKeyframe(_ map: MapView) {
    let state = SceneState(
      t: time, camera: SceneBuilder.camera(of: map), view: SceneBuilder.view(of: map),
      markers: markers.values.sorted { $0.n < $1.n }, selected: selected, window: window, overlays: overlays,
      places: places)
    keyframes.append(SceneKeyframe(at: events.count, state: state))
    nextKeyframe = events.count + 4 * state.markers.count + 256
  }

  /// Virtual time as the timeline holds it, in whole microseconds: the times a page seeks to
  /// (pictures, trace records and `#t=` give six decimals) are the times of its events.
  private static func microseconds(_ time: Double) -> Double {
    (time * 1e6).rounded() / 1e6
  }

  // MARK: Finishing

  /// The scene's timeline, complete.
  func finish(traceEnd: Int) -> ReplayScene {
    let end = map.map { Self.microseconds($0.clock.now) } ?? time
    let timeline = SceneTimeline(
      title: title, records: SceneRecords(from: traceStart, to: max(traceStart, traceEnd)), end: end,
      library: builder.library, keyframes: keyframes, events: events)
    return ReplayScene(timeline: timeline)
  }
}
