import LuaKit
import WaymarkCore

extension PluginHost {
  /// Calls one plugin's handler as `handler(map, ...)` with one result left on the stack.
  /// Returns the stack base to restore, or nil if the call failed (already reported).
  @inline(__always)
  func call(
    _ instance: PluginInstance, _ handler: LuaRef, _ callback: DelegateCallback,
    _ push: (LuaMapBridge, LuaStack) -> Int32
  ) -> (stack: LuaStack, base: Int32)? {
    let stack = instance.state.stack
    let base = stack.top
    stack.push(handler)
    stack.push(instance.mapRef)
    let count = push(instance.bridge, stack)
    dispatchDepth += 1
    defer { dispatchDepth -= 1 }
    do {
      try stack.call(arguments: count + 1, results: 1)
      return (stack, base)
    } catch {
      fail(instance, handler: callback.rawValue, error: error, line: instance.handlerLines[callback.slot])
      stack.setTop(base)
      return nil
    }
  }

  /// A notification: every plugin with a handler, in order. Returns whether any returned
  /// `true` (used only by did_tap_poi under the web policy).
  @discardableResult
  func notify(_ callback: DelegateCallback, _ push: (LuaMapBridge, LuaStack) -> Int32) -> Bool {
    var handled = false
    for instance in instances {
      guard let handler = instance.handler(callback), let (stack, base) = call(instance, handler, callback, push)
      else { continue }
      if stack.type(at: -1) == .boolean && stack.boolean(at: -1) { handled = true }
      stack.setTop(base)
      instance.consecutiveFailures = 0
    }
    return handled
  }

  /// A veto: plugins in order until one returns `true`.
  func veto(_ callback: DelegateCallback, _ push: (LuaMapBridge, LuaStack) -> Int32) -> Bool {
    for instance in instances {
      guard let handler = instance.handler(callback), let (stack, base) = call(instance, handler, callback, push)
      else { continue }
      let type = stack.type(at: -1)
      let answer = type == .boolean && stack.boolean(at: -1)
      stack.setTop(base)
      guard type == .boolean || type == .nil else {
        fail(
          instance, handler: callback.rawValue,
          message:
            "\(instance.file):\(instance.handlerLines[callback.slot]): \(callback.rawValue) returned a \(type); expected true, false or nil"
        )
        continue
      }
      if instance.consecutiveFailures != 0 { instance.consecutiveFailures = 0 }
      if answer {
        lastAnswerSource = instance.name
        return true
      }
    }
    lastAnswerSource = nil
    return false
  }

  /// did_tap_marker: a veto through LuaKit's two-argument fast call (no stack juggling).
  func vetoMarker(_ marker: Marker) -> Bool {
    let callback = DelegateCallback.didTapMarker
    for instance in instances {
      guard let handler = instance.handler(callback) else { continue }
      let result: LuaBooleanResult
      let state = instance.state
      dispatchDepth += 1
      do {
        result = try state.callReturningBoolean(
          handler, with: instance.mapRef, instance.bridge.ref(for: marker, on: state.stack))
        dispatchDepth -= 1
      } catch {
        dispatchDepth -= 1
        fail(instance, handler: callback.rawValue, error: error, line: instance.handlerLines[callback.slot])
        continue
      }
      switch result {
      case .boolean(let answer):
        if instance.consecutiveFailures != 0 { instance.consecutiveFailures = 0 }
        if answer {
          lastAnswerSource = instance.name
          return true
        }
      case .nothing:
        if instance.consecutiveFailures != 0 { instance.consecutiveFailures = 0 }
      case .other(let type):
        fail(
          instance, handler: callback.rawValue,
          message:
            "\(instance.file):\(instance.handlerLines[callback.slot]): \(callback.rawValue) returned a \(type); expected true, false or nil"
        )
      }
    }
    lastAnswerSource = nil
    return false
  }

  /// A content request: plugins in order until one returns valid non-nil content.
  func content(_ callback: DelegateCallback, _ marker: Marker) -> InfoWindowContent? {
    for instance in instances {
      guard let handler = instance.handler(callback),
        let (stack, base) = call(
          instance, handler, callback,
          { bridge, stack in
            bridge.push(marker, on: stack)
            return 1
          })
      else { continue }
      defer { stack.setTop(base) }
      if stack.type(at: -1) == .nil {
        instance.consecutiveFailures = 0
        continue
      }
      let line = "\(instance.file):\(instance.handlerLines[callback.slot])"
      do {
        let value = try ContentConversion.read(at: -1, on: stack)
        let content = try InfoWindowContent(decoding: value)
        contentStore.remember(content, as: value)
        instance.consecutiveFailures = 0
        lastAnswerSource = instance.name
        return content
      } catch {
        fail(
          instance, handler: callback.rawValue,
          message: "\(line): \(callback.rawValue) returned invalid content: \(error)")
      }
    }
    lastAnswerSource = nil
    return nil
  }
}
