import LuaKit
import WaymarkCore

/// Every callback, fanned out to the plugins by the composition of its row in the callback
/// table (``DelegateCallback/signature``): one general dispatch, no per-callback code. A
/// handler is called as `handler(map, ...)` with the event's arguments (``LuaValues/push(_:bridge:on:)``).
extension PluginHost {
  /// Asks the plugins, in order, as the callback's composition says (docs/plugins.md), and
  /// the Swift delegate beside them, if any, before or after them with the same rules.
  public func mapView(_ mapView: MapView, receive event: DelegateEvent) -> CallbackAnswer {
    // The hot path: did_tap_marker, the veto whose sole argument is a marker, with no
    // delegate beside the plugins and no profiling, is the loop in C and nothing else.
    if !hasDelegate, !isProfiling, let marker = event.tappedMarkerKey {
      return vetoInOrder(event, marker, .didTapMarker)
    }
    let callback = event.callback
    guard hasDelegate, let delegate else { return askPlugins(event, callback) }
    let first: Answerer = placement == .beforePlugins ? .delegate(delegate) : .plugins
    let second: Answerer = placement == .beforePlugins ? .plugins : .delegate(delegate)
    let answer = ask(first, event, callback)
    switch callback.composition {
    case .veto where answer.isHandled, .content where answer.content != nil: return answer
    case .veto, .content: return ask(second, event, callback)
    case .notification:
      let handled = ask(second, event, callback).isHandled || answer.isHandled
      return callback.returnsHandled ? CallbackAnswer(handled: handled) : .none
    }
  }

  /// One side of a composition: the plugins, or the Swift delegate beside them.
  private enum Answerer {
    case plugins
    case delegate(DelegateEventHandler)
  }

  private func ask(_ answerer: Answerer, _ event: DelegateEvent, _ callback: DelegateCallback) -> CallbackAnswer {
    switch answerer {
    case .plugins: return askPlugins(event, callback)
    case .delegate(let delegate):
      var answer = delegate.mapView(map, receive: event)
      if answer.isHandled || answer.content != nil { answer.decidedBy = answer.decidedBy ?? delegateName }
      return answer
    }
  }

  /// The plugins' answer, composed as the callback's row says.
  private func askPlugins(_ event: DelegateEvent, _ callback: DelegateCallback) -> CallbackAnswer {
    switch callback.composition {
    case .veto: return veto(event, event.soleMarkerKey, callback)
    case .content: return content(event, callback)
    case .notification: return notify(event, event.soleMarkerKey, callback)
    }
  }

  /// The serial and identity of an event's marker (``DelegateEvent/soleMarkerKey``).
  typealias MarkerKey = (serial: Int, identity: ObjectIdentifier)

  /// Calls `body` with each plugin in asking order until it returns false, without
  /// retaining each plugin: the loop's own copy of ``instances`` holds every one of them
  /// strongly until it ends (a nested call may unload plugins meanwhile).
  @inline(__always)
  private func forEachPlugin(_ body: (PluginInstance) -> Bool) {
    let plugins = instances
    for index in plugins.indices {
      guard Unmanaged.passUnretained(plugins[index])._withUnsafeGuaranteedRef(body) else { return }
    }
  }

  /// Calls one plugin's handler (``PluginInstance/dispatch`` must have one for `callback`)
  /// and reads back a boolean; nil if the call failed (reported). With the key of the
  /// event's ``DelegateEvent/soleMarker``, the handler is called as `handler(map, marker)`
  /// in one C call (``LuaDispatchTable``), else with the event's arguments pushed.
  @inline(__always)
  private func call(
    _ instance: PluginInstance, _ event: DelegateEvent, _ marker: MarkerKey?, _ callback: DelegateCallback
  ) -> LuaBooleanResult? {
    guard
      dispatchDepth < Self.maxNesting
        || admitNested(instance, callback.name, line: instance.handlerLines[callback.rawValue])
    else { return nil }
    dispatchDepth += 1
    defer { dispatchDepth -= 1 }
    let failures = instance.failureCount
    do {
      let result: LuaBooleanResult
      if let marker, !isProfiling {
        result = try callWithMarker(instance, event, marker, callback)
      } else {
        result = try timedCall(instance, event, marker, callback)
      }
      if instance.failureCount != failures { return nil }  // failed inside: not a success
      return result
    } catch {
      fail(instance, handler: callback.name, error: error, line: instance.handlerLines[callback.rawValue])
      return nil
    }
  }

  /// `handler(map, marker)` through the plugin's prepared table: one C call when the table
  /// knows the marker's userdata.
  @inline(__always)
  private func callWithMarker(
    _ instance: PluginInstance, _ event: DelegateEvent, _ marker: MarkerKey, _ callback: DelegateCallback
  ) throws(LuaError) -> LuaBooleanResult {
    if let answer = try instance.dispatch.call(slot: callback.rawValue, key: marker.serial, identity: marker.identity) {
      return answer
    }
    return try callLearningMarker(instance, event, marker, callback)
  }

  /// The first event with this marker for this plugin (or another marker took its entry):
  /// the table learns the marker's userdata from the bridge, then calls.
  @inline(never)
  private func callLearningMarker(
    _ instance: PluginInstance, _ event: DelegateEvent, _ marker: MarkerKey, _ callback: DelegateCallback
  ) throws(LuaError) -> LuaBooleanResult {
    guard let object = event.soleMarker else { preconditionFailure("a marker key without a marker") }
    let argument = instance.bridge.ref(for: object, on: instance.state.stack)
    return try instance.dispatch.call(
      slot: callback.rawValue, argument: argument, key: marker.serial, identity: marker.identity)
  }

  /// A handler call made the general way: timed when the host profiles
  /// (``Configuration/profile``), and with the event's arguments pushed unless it has a marker.
  @inline(never)
  private func timedCall(
    _ instance: PluginInstance, _ event: DelegateEvent, _ marker: MarkerKey?, _ callback: DelegateCallback
  ) throws(LuaError) -> LuaBooleanResult {
    try timed(instance, callback) { () throws(LuaError) in
      if let marker { return try callWithMarker(instance, event, marker, callback) }
      return try instance.state.callReturningBoolean(instance.handlers[callback.rawValue]!) { stack in
        pushArguments(of: event, for: instance, on: stack)
      }
    }
  }

  /// Runs a handler call, timed when the host profiles (``Configuration/profile``).
  @inline(__always)
  private func timed<R>(_ instance: PluginInstance, _ callback: DelegateCallback, _ call: () throws(LuaError) -> R)
    throws(LuaError) -> R
  {
    guard let profile = configuration.profile else { return try call() }
    let start = ContinuousClock.now
    defer {
      let elapsed = (ContinuousClock.now - start).components
      profile.record(
        plugin: instance.name, handler: callback.name,
        seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
    }
    return try call()
  }

  /// Pushes the map and the event's arguments; returns how many. Stack: +n.
  private func pushArguments(of event: DelegateEvent, for instance: PluginInstance, on stack: LuaStack) -> Int32 {
    stack.push(instance.mapRef)
    var count: Int32 = 1
    event.forEachArgument { value in
      LuaValues.push(value, bridge: instance.bridge, on: stack)
      count += 1
    }
    return count
  }

  /// A notification: every plugin with a handler, in order. A callback that returns
  /// "handled" (did_tap_poi) is handled when any plugin returned `true`.
  private func notify(_ event: DelegateEvent, _ marker: MarkerKey?, _ callback: DelegateCallback) -> CallbackAnswer {
    var handled = false
    forEachPlugin { instance in
      guard instance.dispatch.hasHandler(at: callback.rawValue), let result = call(instance, event, marker, callback)
      else { return true }
      if result == .boolean(true) { handled = true }
      instance.consecutiveFailures = 0
      return true
    }
    return callback.returnsHandled ? CallbackAnswer(handled: handled) : .none
  }

  /// A veto: plugins in order until one returns `true`; anything but a boolean or nil is an
  /// error of that plugin. With the event's marker and no profiling, the loop runs in C
  /// (``vetoInOrder(_:_:_:)``).
  private func veto(_ event: DelegateEvent, _ marker: MarkerKey?, _ callback: DelegateCallback) -> CallbackAnswer {
    if let marker, !isProfiling { return vetoInOrder(event, marker, callback) }
    var decidedBy: String?
    forEachPlugin { instance in
      guard instance.dispatch.hasHandler(at: callback.rawValue), decides(instance, event, marker, callback) else {
        return true
      }
      decidedBy = instance.name
      return false
    }
    return decidedBy.map { CallbackAnswer(handled: true, decidedBy: $0) } ?? .none
  }

  /// The veto's loop over ``order`` in C: one C call asks every plugin in order that has a
  /// handler and whose table knows the marker's userdata; Swift takes over one plugin where
  /// it must report a failure or learn the marker, or refuses a call nested too deep (as
  /// ``call(_:_:_:_:)`` does), then the loop goes on from the next plugin.
  @inline(__always)
  private func vetoInOrder(_ event: DelegateEvent, _ marker: MarkerKey, _ callback: DelegateCallback)
    -> CallbackAnswer
  {
    let walk = order.enter()
    defer { order.leave(walk) }
    var start = 0
    while true {
      let index: Int
      switch order.firstTrue(
        in: walk, from: start, slot: callback.rawValue, key: marker.serial, identity: marker.identity)
      {
      case .none: return .none
      case .decided(let at):
        let name = walk.owner(at: at, as: PluginInstance.self)._withUnsafeGuaranteedRef { $0.name }
        return CallbackAnswer(handled: true, decidedBy: name)
      case .failed(let at):
        let instance = walk.owner(at: at, as: PluginInstance.self).takeUnretainedValue()
        let error = order.takeError(of: walk, at: at)
        fail(instance, handler: callback.name, error: error, line: instance.handlerLines[callback.rawValue])
        index = at
      case .other(let at, let type):
        failReturned(walk.owner(at: at, as: PluginInstance.self).takeUnretainedValue(), type, callback)
        index = at
      case .miss(let at), .nested(let at):
        let instance = walk.owner(at: at, as: PluginInstance.self).takeUnretainedValue()
        if decides(instance, event, marker, callback) { return CallbackAnswer(handled: true, decidedBy: instance.name) }
        index = at
      }
      start = index + 1
    }
  }

  /// One plugin's veto (its table has a handler for `callback`): whether it returned `true`.
  /// A boolean or nil is a success; any other value is a failure of the plugin.
  private func decides(
    _ instance: PluginInstance, _ event: DelegateEvent, _ marker: MarkerKey?, _ callback: DelegateCallback
  ) -> Bool {
    guard let result = call(instance, event, marker, callback) else { return false }
    switch result {
    case .boolean(let handled):
      if instance.consecutiveFailures != 0 { instance.consecutiveFailures = 0 }
      return handled
    case .nothing:
      if instance.consecutiveFailures != 0 { instance.consecutiveFailures = 0 }
    case .other(let type): failReturned(instance, type, callback)
    }
    return false
  }

  /// Reports a veto handler's answer that is neither a boolean nor nil, at its `return`.
  private func failReturned(_ instance: PluginInstance, _ type: LuaType, _ callback: DelegateCallback) {
    fail(
      instance, handler: callback.name,
      message:
        "\(instance.file):\(instance.returnLine(callback, type.description)): \(callback.name) returned a \(type); expected true, false or nil"
    )
  }

  /// The live view behind `content` (R34): the table a plugin just answered it with, else
  /// what the delegate beside the plugins tells.
  public func mapView(_ mapView: MapView, liveViewOf content: InfoWindowContent) -> LiveView<InfoWindowContent>? {
    if let answered = answeredView, answered.content == content { return answered.view }
    return delegate?.mapView(mapView, liveViewOf: content)
  }

  /// A content request: plugins in order until one returns valid non-nil content.
  private func content(_ event: DelegateEvent, _ callback: DelegateCallback) -> CallbackAnswer {
    answeredView = nil
    for instance in instances {
      guard let handler = instance.handler(callback),
        admitNested(instance, callback.name, line: instance.handlerLines[callback.rawValue])
      else { continue }
      let stack = instance.state.stack
      let base = stack.top
      defer { stack.setTop(base) }
      stack.push(handler)
      let count = pushArguments(of: event, for: instance, on: stack)
      let failures = instance.failureCount
      dispatchDepth += 1
      do {
        try timed(instance, callback) { () throws(LuaError) in try stack.call(arguments: count, results: 1) }
        dispatchDepth -= 1
      } catch {
        dispatchDepth -= 1
        fail(instance, handler: callback.name, error: error, line: instance.handlerLines[callback.rawValue])
        continue
      }
      if stack.type(at: -1) == .nil {
        if instance.failureCount == failures { instance.consecutiveFailures = 0 }
        continue
      }
      let returned = stack.typeName(at: -1)
      do {
        let value = try ContentConversion.read(at: -1, on: stack)
        let content = try InfoWindowContent(decoding: value)
        contentStore.remember(content, as: value)
        instance.consecutiveFailures = 0
        answeredView = LuaLiveView.content(tableAt: -1, on: stack, store: contentStore).map { (content, $0) }
        return CallbackAnswer(content: content, decidedBy: instance.name)
      } catch {
        fail(
          instance, handler: callback.name,
          message:
            "\(instance.file):\(instance.returnLine(callback, returned)): \(callback.name) returned invalid content: \(error)"
        )
      }
    }
    return .none
  }
}
