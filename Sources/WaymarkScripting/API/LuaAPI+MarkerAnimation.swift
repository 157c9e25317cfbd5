import LuaKit
import WaymarkCore

extension LuaAPI {
  /// `map:animate_marker(marker, target, options)` and `marker:animate_position(...)`: the
  /// target is a coordinate (the position alone, S3) or a table of any of `position`,
  /// `rotation`, `opacity` (R46). Every value is read and checked before anything starts.
  static func animateMarker(_ bridge: LuaMapBridge, _ context: LuaCallContext, markerArgument: Int32)
    throws -> Int32
  {
    let stack = context.stack
    let marker = try marker(argument: markerArgument, context)
    let targetIndex = markerArgument + 1
    let target: MarkerAnimationTarget
    if isAnimationTarget(at: targetIndex, on: stack) {
      target = try animationTarget(at: targetIndex, on: stack)
    } else {
      target = MarkerAnimationTarget(
        position: try LuaValues.coordinate(at: targetIndex, on: stack, field: "position"))
    }
    let options = try AnimationOptions.read(
      at: markerArgument + 2, on: stack, what: "animate_marker options", easing: true)
    let map = try bridge.requireMap()
    try map.animate(
      marker, to: target, duration: options.duration ?? 1, easing: options.easing ?? .linear,
      completion: options.completion)
    return 0
  }

  /// Whether the value at `index` is a table of animated fields rather than a coordinate: a
  /// table with neither `lat`, `lng` nor a first element.
  private static func isAnimationTarget(at index: Int32, on stack: LuaStack) -> Bool {
    guard stack.type(at: index) == .table else { return false }
    let types = [
      stack.rawGetField("lat", ofTableAt: index), stack.rawGetField("lng", ofTableAt: index),
      stack.rawGetIndex(1, ofTableAt: index),
    ]
    stack.pop(3)
    return types.allSatisfy { $0 == .nil }
  }

  /// `{ position =, rotation =, opacity = }`, each optional; an unknown key is refused with
  /// a suggestion (`animate_marker.opacty: unknown field; did you mean opacity?`).
  private static func animationTarget(at index: Int32, on stack: LuaStack) throws(LuaFunctionError)
    -> MarkerAnimationTarget
  {
    let shape = LuaAPIShape.markerAnimationTarget
    try shape.requireKnownFields(ofTableAt: index, on: stack, what: "animate_marker")
    var target = MarkerAnimationTarget()
    target.position = try shape.withField("position", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) -> Coordinate? in
      LuaValues.isNil(v, on: stack) ? nil : try LuaValues.coordinate(at: v, on: stack, field: "animate_marker.position")
    }
    for (name, keyPath) in [("rotation", \MarkerAnimationTarget.rotation), ("opacity", \.opacity)] {
      target[keyPath: keyPath] = try shape.withField(name, ofTableAt: index, on: stack) {
        v throws(LuaFunctionError) -> Double? in
        LuaValues.isNil(v, on: stack) ? nil : try LuaValues.number(at: v, on: stack, field: "animate_marker.\(name)")
      }
    }
    return target
  }
}

extension LuaAPIShape {
  /// What `map:animate_marker` moves when not given a coordinate (R46).
  static let markerAnimationTarget = LuaAPIShape(
    name: "MarkerAnimationTarget",
    doc: "What map:animate_marker moves (R46): any of position, rotation (the short way round) and opacity.",
    fields: [.init("position", "Coordinate?"), .init("rotation", "number?"), .init("opacity", "number?")])
}
