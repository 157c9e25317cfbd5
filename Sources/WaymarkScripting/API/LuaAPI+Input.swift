import LuaKit
import WaymarkCore

extension LuaAPI {
  /// The re-entrancy rule, repeated in every input method's doc.
  static let reentrancyNote =
    "Input: refused from inside a callback (a handler); schedule it with map:after(0, fn)."

  /// `Map` input: taps, long presses, drags, gestures, and (scripts only) time.
  static let mapInputEntries: [LuaAPIEntry] = [
    input(
      "tap", [.init("target", "Marker|Coordinate|Point")],
      "Taps a marker (its icon centre), a coordinate or a screen point (R4-R17)."
    ) { map, context in
      switch try target(at: 2, context) {
      case .marker(let m): try map.tap(m)
      case .coordinate(let c): try map.tap(c)
      case .point(let p): try map.tap(at: p)
      }
    },
    input(
      "long_press", [.init("target", "Marker|Coordinate|Point")],
      "Long-presses a marker, a coordinate or a screen point (R16, R18, R19)."
    ) { map, context in
      switch try target(at: 2, context) {
      case .marker(let m): try map.longPress(m)
      case .coordinate(let c): try map.longPress(c)
      case .point(let p): try map.longPress(at: p)
      }
    },
    input("tap_info_window", [], "Taps the shown info window (R16); an error if none is shown.") { map, _ in
      try map.tapInfoWindow()
    },
    input("long_press_info_window", [], "Long-presses the shown info window (R16).") { map, _ in
      try map.longPressInfoWindow()
    },
    input(
      "drag", [.init("marker", "Marker"), .init("to", "Coordinate"), .init("options", "GestureOptions?")],
      "Drags a marker to a coordinate over `duration` seconds (default 1) (R18)."
    ) { map, context in
      let stack = context.stack
      let marker = try marker(argument: 2, context)
      let to = try LuaValues.coordinate(at: 3, on: stack, field: "drag.to")
      try map.drag(marker, to: to, duration: try duration(at: 4, context, what: "drag") ?? 1)
    },
    input(
      "pan", [.init("by", "Offset"), .init("options", "GestureOptions?")],
      "A pan gesture: the finger moves by { x, y } points (x right, y down) and the content under it follows; the camera moves the other way (R25)."
    ) { map, context in
      let by = try LuaValues.offset(at: 2, on: context.stack, field: "pan")
      try map.pan(dx: by.x, dy: by.y, duration: try duration(at: 3, context, what: "pan") ?? 0.5)
    },
    input(
      "pinch", [.init("zoom_by", "number"), .init("options", "PinchOptions?")],
      "A pinch gesture: zoom by levels about a point (the centre by default), the fingers moving by `pan` as they pinch (R25, R67)."
    ) { map, context in
      let delta = try context.checkNumber(2)
      let (point, scrolling) = try offCentre(at: 3, context, what: "pinch", shape: .pinchOptions)
      try map.pinch(
        zoomBy: delta, around: point,
        duration: try duration(at: 3, context, what: "pinch", shape: .pinchOptions) ?? 0.5, scrolling: scrolling)
    },
    input(
      "rotate", [.init("degrees", "number"), .init("options", "RotateOptions?")],
      "A two-finger rotation by degrees clockwise about a point (the centre by default): the content turns clockwise on the screen and the camera's bearing decreases by degrees (R25, R67)."
    ) { map, context in
      let (point, scrolling) = try offCentre(at: 3, context, what: "rotate", shape: .rotateOptions)
      try map.rotate(
        by: try context.checkNumber(2), around: point,
        duration: try duration(at: 3, context, what: "rotate", shape: .rotateOptions) ?? 0.5, scrolling: scrolling)
    },
    input(
      "tilt", [.init("degrees", "number"), .init("options", "GestureOptions?")],
      "A two-finger tilt by degrees (clamped, R22, R25)."
    ) { map, context in
      try map.tilt(by: try context.checkNumber(2), duration: try duration(at: 3, context, what: "tilt") ?? 0.5)
    },
    input(
      "double_tap", [.init("target", "Coordinate|Point")], "A double tap: zoom in by one level about the point (R25)."
    ) { map, context in
      switch try target(at: 2, context) {
      case .point(let p): try map.doubleTap(at: p)
      case .coordinate(let c): try map.doubleTap(at: try map.projection.point(for: c).orThrow("double_tap"))
      case .marker(let m): try map.doubleTap(at: try map.projection.point(for: m.position).orThrow("double_tap"))
      }
    },
    input("tap_my_location_button", [], "Taps the my-location button (R32).") { map, _ in
      try map.tapMyLocationButton()
    },
    timeInput("advance", [.init("seconds", "number")], "Advances virtual time by `seconds`, running frames and timers.")
    {
      map, context in try map.advance(by: try context.checkNumber(2), interruption: budgetCheck(context))
    },
    timeInput(
      "settle", [.init("limit", "number?")], "Advances time until the map is idle and nothing is pending."
    ) { map, context in
      try map.settle(limit: try context.optionalNumber(2), interruption: budgetCheck(context))
    },
  ]

  /// Stops `advance` and `settle` between two frames or timers once the script's own budget
  /// (`--script-budget`) has run out: the plugins' and the map's work in between is not
  /// the script's Lua code, so the watchdog alone could not stop it.
  private static let budgetReason = "the script's time budget ran out"

  private static func budgetCheck(_ context: LuaCallContext) -> () -> String? {
    let state = context.stack.state
    return { state.hasRunOutOfBudget ? budgetReason : nil }
  }

  enum Target {
    case marker(Marker)
    case coordinate(Coordinate)
    case point(Point)
  }

  /// A marker, `{ lat =, lng = }` or `{ x =, y = }`.
  static func target(at index: Int32, _ context: LuaCallContext) throws(LuaFunctionError) -> Target {
    let stack = context.stack
    if let marker = stack.object(at: index, as: LuaMapBridge.markerType) { return .marker(marker) }
    guard stack.type(at: index) == .table else {
      throw context.argumentError(
        index, "a marker, { lat =, lng = } or { x =, y = } expected, got \(stack.typeName(at: index))")
    }
    let isPoint = stack.withStackBalance { stack.rawGetField("x", ofTableAt: index) != .nil }
    if isPoint { return .point(try LuaValues.point(at: index, on: stack, field: context.functionName)) }
    return .coordinate(try LuaValues.coordinate(at: index, on: stack, field: context.functionName))
  }

  private static func duration(
    at index: Int32, _ context: LuaCallContext, what: String, shape: LuaAPIShape = .gestureOptions
  ) throws(LuaFunctionError) -> Double? {
    let stack = context.stack
    if LuaValues.isNil(index, on: stack) { return nil }
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError("\(what) options", expected: "a table", at: index, on: stack)
    }
    try shape.requireKnownFields(ofTableAt: index, on: stack, what: "\(what) options")
    return try shape.withField("duration", ofTableAt: index, on: stack) { v throws(LuaFunctionError) -> Double? in
      LuaValues.isNil(v, on: stack) ? nil : try LuaValues.number(at: v, on: stack, field: "\(what).duration")
    }
  }

  /// A pinch's or rotation's `point` and `pan` options (R67), nil where not given.
  private static func offCentre(at index: Int32, _ context: LuaCallContext, what: String, shape: LuaAPIShape)
    throws(LuaFunctionError) -> (point: Point?, scrolling: Point?)
  {
    let stack = context.stack
    let point = try LuaValues.withFieldIfTable("point", of: shape, at: index, on: stack) { v throws(LuaFunctionError) in
      try LuaValues.point(at: v, on: stack, field: "\(what).point")
    }
    let scrolling = try LuaValues.withFieldIfTable("pan", of: shape, at: index, on: stack) {
      v throws(LuaFunctionError) in
      try LuaValues.offset(at: v, on: stack, field: "\(what).pan")
    }
    return (point, scrolling)
  }

  private static func input(
    _ name: String, _ parameters: [LuaAPIParameter], _ doc: String,
    _ body: @escaping @Sendable (MapView, LuaCallContext) throws -> Void
  ) -> LuaAPIEntry {
    .method(
      "Map", name, parameters, input: true, "\(doc) \(reentrancyNote)",
      { bridge, context in
        try body(try bridge.requireMap(), context)
        return 0
      })
  }

  private static func timeInput(
    _ name: String, _ parameters: [LuaAPIParameter], _ doc: String,
    _ body: @escaping @Sendable (MapView, LuaCallContext) throws -> Void
  ) -> LuaAPIEntry {
    .method(
      "Map", name, parameters, input: true, "\(doc) Scripts only: a plugin cannot drive time.",
      { bridge, context in
        guard bridge.allowsTimeControl else {
          throw LuaFunctionError(
            "\(name) cannot be called from a plugin: only scripts drive time (use map:after for delays)")
        }
        do {
          try body(try bridge.requireMap(), context)
        } catch let error as MapError {
          if case .stopped(_, _, budgetReason, _) = error { bridge.budgetStop = error.luaDescription }
          throw error
        }
        return 0
      })
  }
}

extension Optional where Wrapped == Point {
  fileprivate func orThrow(_ action: String) throws(LuaFunctionError) -> Point {
    guard let self else { throw LuaFunctionError("\(action): the coordinate is beyond the horizon") }
    return self
  }
}

extension LuaValues {
  /// `body(field)` if the value at `index` is a table with a non-nil `key` (of `shape`); else nil.
  static func withFieldIfTable<R>(
    _ key: String, of shape: LuaAPIShape, at index: Int32, on stack: LuaStack,
    _ body: (Int32) throws(LuaFunctionError) -> R
  ) throws(LuaFunctionError) -> R? {
    guard stack.type(at: index) == .table else { return nil }
    return try shape.withField(key, ofTableAt: index, on: stack) { v throws(LuaFunctionError) -> R? in
      isNil(v, on: stack) ? nil : try body(v)
    }
  }
}
