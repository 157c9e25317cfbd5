import LuaKit
import WaymarkCore

/// A projection Lua holds (R68): the conversions of one camera, view size and padding, as
/// `GMSProjection` is "a snapshot of the current projection".
final class LuaProjection {
  /// The projection, fixed when it was taken.
  let projection: Projection
  init(_ projection: Projection) { self.projection = projection }
}

extension LuaAPI {
  /// The conversions of R29: on the map (its camera now), and on the snapshots
  /// `map.projection` takes (the camera they were taken at, R68). One implementation serves
  /// both owners.
  static let projectionEntries: [LuaAPIEntry] =
    [
      .property(
        "Map", "projection", "Projection",
        "A snapshot of the projection (R68): the conversions at the camera, view size and padding of now, which never follow later moves.",
        get: { bridge, stack, _ in
          stack.push(LuaProjection(try bridge.requireMap().projection), as: LuaMapBridge.projectionType)
        })
    ]
    + conversions(of: "Map", now: "at this zoom") { bridge, _ in try bridge.requireMap().projection }
    + conversions(of: "Projection", now: "at the snapshot's camera") { _, context in
      try context.checkObject(1, as: LuaMapBridge.projectionType).projection
    }

  /// The five conversions of `owner`, each reading the projection `projection` gives.
  private static func conversions(
    of owner: String, now: String,
    _ projection: @escaping @Sendable (LuaMapBridge, LuaCallContext) throws -> Projection
  ) -> [LuaAPIEntry] {
    [
      .method(
        owner, "point_for", [.init("coordinate", "Coordinate")], returns: "Point?",
        "The screen point of a coordinate, nil beyond the horizon (R29).",
        { bridge, context in
          let c = try LuaValues.coordinate(at: 2, on: context.stack, field: "point_for")
          if let p = try projection(bridge, context).point(for: c) {
            LuaValues.push(p, on: context.stack)
          } else {
            context.stack.pushNil()
          }
          return 1
        }),
      .method(
        owner, "coordinate_for", [.init("point", "Point")], returns: "Coordinate?",
        "The coordinate under a screen point, nil above the horizon (R29).",
        { bridge, context in
          let p = try LuaValues.point(at: 2, on: context.stack, field: "coordinate_for")
          do { _ = try p.validated("coordinate_for") } catch let error as MapError {
            throw error.luaError
          }
          if let c = try projection(bridge, context).coordinate(for: p) {
            LuaValues.push(c, on: context.stack)
          } else {
            context.stack.pushNil()
          }
          return 1
        }),
      .method(
        owner, "visible_region", returns: "VisibleRegion",
        "The corners { near_left, near_right, far_left, far_right } of what the camera sees (R29).",
        { bridge, context in
          let region = try projection(bridge, context).visibleRegion
          let stack = context.stack
          stack.newTable()
          for (key, c) in [
            ("near_left", region.nearLeft), ("near_right", region.nearRight), ("far_left", region.farLeft),
            ("far_right", region.farRight),
          ] {
            LuaValues.push(c, on: stack)
            stack.rawSetField(key, ofTableAt: -2)
          }
          return 1
        }),
      .method(
        owner, "contains", [.init("coordinate", "Coordinate")], returns: "boolean",
        "Whether the coordinate is visible in the padded view (R29).",
        { bridge, context in
          let c = try LuaValues.coordinate(at: 2, on: context.stack, field: "contains")
          context.stack.push(try projection(bridge, context).contains(c))
          return 1
        }),
      .method(
        owner, "points_for_meters", [.init("meters", "number"), .init("coordinate", "Coordinate")],
        returns: "number", "How many points `meters` span at the coordinate \(now) (R29).",
        { bridge, context in
          let meters = try context.checkNumber(2)
          guard meters.isFinite, meters >= 0, meters <= 1e9 else {
            throw LuaFunctionError("points_for_meters: \(formatNumber(meters)) meters is not a number from 0 to 1e9")
          }
          let c = try LuaValues.coordinate(at: 3, on: context.stack, field: "points_for_meters")
          context.stack.push(try projection(bridge, context).points(forMeters: meters, at: c))
          return 1
        }),
    ]
  }
}
