import LuaKit
import WaymarkCore

extension LuaAPI {
  /// `Marker`: the R1 properties, `user_data`, `map` and `animate_position`.
  static let markerEntries: [LuaAPIEntry] =
    MarkerField.all.map(markerProperty) + [
      .property(
        "Marker", "user_data", "any",
        "Any value kept with the marker; other plugins and the script see a plain-data copy of what was last assigned."
          + " A marker a cluster manager rendered holds its cluster or item (R72).",
        get: { bridge, stack, object in bridge.pushUserData(of: object, on: stack) },
        set: { bridge, stack, object, value in try bridge.setUserData(of: object, to: value, on: stack) }),
      .property(
        "Marker", "map", "Map?",
        "The map the marker is on, nil once removed (R2); assign nil to remove it, the map to add it back.",
        get: { bridge, stack, object in
          let marker = try marker(at: object, on: stack)
          if let map = bridge.map, marker.map === map { bridge.pushMap(on: stack) } else { stack.pushNil() }
        },
        set: { bridge, stack, object, value in
          let marker = try marker(at: object, on: stack)
          let map = try bridge.requireMap()
          if LuaValues.isNil(value, on: stack) {
            if marker.map === map { try map.remove(marker) }
          } else if stack.object(at: value, as: LuaMapBridge.mapType) === map {
            try map.add(marker)
          } else {
            throw LuaValues.typeError("marker.map", expected: "nil or this map", at: value, on: stack)
          }
        }),
      .method(
        "Marker", "animate_position",
        [.init("position", "Coordinate"), .init("options", "MarkerAnimationOptions?")],
        "Moves the marker to a position over `duration` seconds (S3); same as map:animate_marker.",
        { bridge, context in try animateMarker(bridge, context, markerArgument: 1) }),
    ]

  private static func markerProperty(_ field: MarkerField) -> LuaAPIEntry {
    let get: LuaAPIImplementation.Getter = { _, stack, object in
      field.get(try marker(at: object, on: stack), stack)
    }
    guard let assign = field.assign else {
      return .property("Marker", field.name, field.type, field.doc, get: get)
    }
    return .property(
      "Marker", field.name, field.type, field.doc, get: get,
      set: { bridge, stack, object, value in
        let marker = try marker(at: object, on: stack)
        try marker.update { options in try assign(stack, value, &options) }
        field.didApply?(bridge, stack, value, marker)
      })
  }

  /// The marker at `index`, or an error naming `field` (`map.selected_marker: expected a
  /// marker, got string`).
  static func marker(at index: Int32, on stack: LuaStack, field: String = "marker") throws(LuaFunctionError)
    -> Marker
  {
    guard let marker = stack.object(at: index, as: LuaMapBridge.markerType) else {
      throw LuaValues.typeError(field, expected: "a marker", at: index, on: stack)
    }
    return marker
  }

  /// The marker passed as argument `n`, or `bad argument #n to 'name' (marker expected, got
  /// string)`, counted as the caller counts (``LuaCallContext/argumentError(_:_:)``).
  static func marker(argument n: Int32, _ context: LuaCallContext) throws(LuaFunctionError) -> Marker {
    guard let marker = context.stack.object(at: n, as: LuaMapBridge.markerType) else {
      throw context.typeError(n, expected: "marker")
    }
    return marker
  }
}

/// `{ duration =, on_complete = function(finished) end, easing = }` of animations.
struct AnimationOptions {
  var duration: Double?
  var easing: Easing?
  var completion: ((Bool) -> Void)?

  static func read(
    at index: Int32, on stack: LuaStack, what: String, easing allowsEasing: Bool
  ) throws(LuaFunctionError) -> AnimationOptions {
    var options = AnimationOptions()
    if LuaValues.isNil(index, on: stack) { return options }
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError(what, expected: "a table { duration =, on_complete = }", at: index, on: stack)
    }
    let shape = allowsEasing ? LuaAPIShape.markerAnimationOptions : .animationOptions
    try shape.requireKnownFields(ofTableAt: index, on: stack, what: what)
    options.duration = try shape.withField("duration", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) -> Double? in
      LuaValues.isNil(v, on: stack) ? nil : try LuaValues.number(at: v, on: stack, field: "\(what).duration")
    }
    options.easing =
      allowsEasing
      ? try shape.withField("easing", ofTableAt: index, on: stack) {
        v throws(LuaFunctionError) -> Easing? in
        guard !LuaValues.isNil(v, on: stack) else { return nil }
        let name = try LuaValues.string(at: v, on: stack, field: "\(what).easing")
        guard let easing = Easing(rawValue: name) else {
          throw LuaFunctionError(
            "\(what).easing: \"\(name)\" is not one of \(Easing.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return easing
      } : nil
    let callback = try shape.withField("on_complete", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) -> LuaRef? in
      guard !LuaValues.isNil(v, on: stack) else { return nil }
      guard stack.type(at: v) == .function else {
        throw LuaValues.typeError("\(what).on_complete", expected: "a function", at: v, on: stack)
      }
      stack.pushValue(at: v)
      return stack.ref()
    }
    if let callback {
      // The map keeps the function's reference only: see LuaMapBridge.invoke.
      options.completion = { finished in
        LuaMapBridge.invoke(callback, context: "on_complete") { stack in
          stack.push(finished)
          return 1
        }
      }
    }
    return options
  }
}
