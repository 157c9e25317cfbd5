/// Who hears a map, and what it is telling them now: the delegate, the observers, the trace,
/// and the callbacks running. A part of ``MapView``; the map makes the calls
/// (MapView+Callbacks.swift), this part keeps the books.
///
/// Invariants (``checkInvariants()``): ``running`` lists the callbacks whose delegate call
/// has not returned, innermost last (input is refused while it is not empty); a veto or
/// content callback's record starts with `plugin` null and gets its result and who decided
/// when the delegate returns (``recordAnswer(at:of:answer:)``).
struct CallbackEmitter {
  /// Hears the callbacks; weak, like `GMSMapView.delegate`.
  weak var delegate: DelegateEventHandler?
  /// Every callback and state change, in order.
  let trace: TraceLog
  /// The callbacks whose delegate call runs now, innermost last.
  private(set) var running: [DelegateCallback] = []
  /// Delegate code that runs outside the callbacks but, like them, may not send input (a
  /// plugin's `setup`, `teardown`, ...), innermost last.
  var inputRefusals: [String] = []
  /// Who hears every change of what the map shows, held weakly.
  private(set) var observers: [WeakObserver] = []
  /// Whether ``observers`` is not empty, kept as a flag so that a change told to nobody
  /// (adding a marker in bulk) reads one byte.
  private(set) var isObserved = false

  /// An emitter recording into `trace`.
  init(trace: TraceLog) { self.trace = trace }

  /// Records a callback when the map makes it; returns its record's index (nil when the
  /// trace is off).
  func record(_ event: DelegateEvent, at time: Double) -> Int? {
    trace.isEnabled ? trace.append(TraceRecord(event, at: time)) : nil
  }

  /// Notes that the delegate is being asked `callback`.
  mutating func begin(_ callback: DelegateCallback) { running.append(callback) }

  /// Notes that the innermost delegate call returned.
  mutating func end() { running.removeLast() }

  /// Fills in a veto or content callback's result and who decided it.
  func recordAnswer(at index: Int, of callback: DelegateCallback, answer: CallbackAnswer) {
    let result: TraceValue
    switch callback.composition {
    case .notification: return
    case .veto: result = .bool(answer.isHandled)
    case .content: result = answer.content == nil ? .null : .string("content")
    }
    trace.update(index) { record in
      record.result = result
      record.answerer = answer.decidedBy.map(TraceValue.string) ?? .null
    }
  }

  /// Throws if input arrives while a callback (or code refusing input) is running.
  func requireNoCallbackRunning(_ action: String) throws(MapError) {
    if let callback = running.last { throw .reentrantInput(action: action, callback: callback.name) }
    if let name = inputRefusals.last { throw .reentrantInput(action: action, callback: name) }
  }

  /// Starts telling `observer` about changes (once, however often it is added).
  mutating func addObserver(_ observer: MapObserver) {
    observers.removeAll { $0.observer == nil || $0.observer === observer }
    observers.append(WeakObserver(observer: observer))
    isObserved = true
  }

  /// Stops telling `observer` about changes.
  mutating func removeObserver(_ observer: MapObserver) {
    observers.removeAll { $0.observer == nil || $0.observer === observer }
    isObserved = !observers.isEmpty
  }

  /// Describes the first broken invariant, or nil when all hold (tests, between inputs).
  func checkInvariants() -> String? {
    if let callback = running.last { return "\(callback.name) is still marked running" }
    if let name = inputRefusals.last { return "input is still refused during \(name)" }
    for record in trace.records where record.answerer == .null {
      guard let callback = record.event.callback, callback.composition != .notification,
        record.result == nil
      else { continue }
      return "the \(record.event) record at \(record.time) has no result"
    }
    return nil
  }
}
