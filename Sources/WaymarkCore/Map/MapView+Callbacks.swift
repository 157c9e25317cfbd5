extension MapView {
  // MARK: Callbacks, records and observers

  /// Records a callback, then makes it (if there is a delegate) and returns its answer; the
  /// record of a veto or content callback gets the result and who decided it.
  @discardableResult
  func emit(_ event: DelegateEvent) -> CallbackAnswer {
    let callback = event.callback
    let index = callbacks.trace.isEnabled ? callbacks.record(event, at: clock.now) : nil
    var answer = CallbackAnswer.none
    if let delegate = callbacks.delegate {
      callbacks.begin(callback)
      answer = delegate.mapView(self, receive: event)
      callbacks.end()
    }
    if let index { callbacks.recordAnswer(at: index, of: callback, answer: answer) }
    return answer
  }

  /// Records a runtime record (not a callback), at the map's time, filled in by `fill`.
  package func note(_ event: TraceEvent, _ fill: (inout TraceRecord) -> Void = { _ in }) {
    guard trace.isEnabled else { return }
    var record = TraceRecord(time: clock.now, event: event)
    fill(&record)
    trace.append(record)
  }

  /// Throws if input arrives while a callback (or code run with ``refusingInput(during:_:)``)
  /// is running.
  func requireNoCallbackRunning(_ action: String) throws(MapError) {
    // The common case reads two stacks, not a copy of the whole emitter.
    if callbacks.running.isEmpty && callbacks.inputRefusals.isEmpty { return }
    try callbacks.requireNoCallbackRunning(action)
  }

  /// Runs `body` refusing input as during a callback: code a delegate runs outside the
  /// callbacks (a plugin's `setup` or `teardown`) may change the map, but input from it
  /// (taps, gestures, time) would re-enter the map's event loop. `name` is what the error
  /// says input came from inside of.
  package func refusingInput<R, E: Error>(during name: String, _ body: () throws(E) -> R) throws(E) -> R {
    callbacks.inputRefusals.append(name)
    defer { callbacks.inputRefusals.removeLast() }
    return try body()
  }

  /// Adds a warning to the trace (for example, selecting a marker of another map, R11).
  package func warn(_ message: String) {
    note(.warning) { $0.message = message }
  }

  /// Starts telling `observer` about every change of this map (it is held weakly).
  public func addObserver(_ observer: MapObserver) {
    callbacks.addObserver(observer)
  }

  /// Stops telling `observer` about changes.
  public func removeObserver(_ observer: MapObserver) {
    callbacks.removeObserver(observer)
  }

  /// Tells the observers about a change; costs one check when there are none.
  @inline(__always)
  func notify(_ change: @autoclosure () -> MapChange) {
    guard callbacks.isObserved else { return }
    let change = change()
    for entry in callbacks.observers { entry.observer?.mapView(self, didChange: change) }
  }
}
