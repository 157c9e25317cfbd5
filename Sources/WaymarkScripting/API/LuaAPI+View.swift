import LuaKit
import WaymarkCore

extension LuaAPI {
  /// `Map`: the view around the map: padding (R29) and which gestures the user may make (R25).
  static let viewEntries: [LuaAPIEntry] = [
    .property(
      "Map", "padding", "Insets",
      "Insets that move the visual centre and shrink the visible region (R29); assign a number or a table.",
      get: { bridge, stack, _ in
        let padding = try bridge.requireMap().padding
        stack.newTable(fieldCount: 4)
        for (key, value) in [
          ("top", padding.top), ("left", padding.left), ("bottom", padding.bottom), ("right", padding.right),
        ] {
          stack.push(value)
          stack.rawSetField(key, ofTableAt: -2)
        }
      },
      set: { bridge, stack, _, value in
        try bridge.requireMap().setPadding(
          try CameraUpdateReader.readInsets(at: value, on: stack, field: "map.padding", default: 0))
      }),
    .property(
      "Map", "gestures", "GestureFlags",
      "Which gestures the user may make (R25), and whether zooms and rotations may turn about the fingers and follow them (allow_scroll_during_rotate_or_zoom, R67); assign a table of the ones to change. Code-driven moves always work.",
      get: { bridge, stack, _ in
        let settings = try bridge.requireMap().settings
        stack.newTable(fieldCount: Int32(gestureFlags.count))
        for (key, flag) in gestureFlags {
          stack.push(settings[keyPath: flag])
          stack.rawSetField(key, ofTableAt: -2)
        }
      },
      set: { bridge, stack, _, value in
        guard stack.type(at: value) == .table else {
          throw LuaValues.typeError("map.gestures", expected: "a table of booleans", at: value, on: stack)
        }
        try LuaAPIShape.gestureFlags.requireKnownFields(ofTableAt: value, on: stack, what: "map.gestures")
        let map = try bridge.requireMap()
        var settings = map.settings
        for (key, flag) in gestureFlags {
          try LuaAPIShape.gestureFlags.withField(key, ofTableAt: value, on: stack) { field throws(LuaFunctionError) in
            if !LuaValues.isNil(field, on: stack) {
              settings[keyPath: flag] = try LuaValues.boolean(at: field, on: stack, field: "map.gestures.\(key)")
            }
          }
        }
        map.settings = settings
      }),
    cameraTargetBounds,
  ]

  /// `map.camera_target_bounds`: `{ SW, NE }` or nil (R66).
  private static let cameraTargetBounds = LuaAPIEntry.property(
    "Map", "camera_target_bounds", "Coordinate[]?",
    "The bounds { south_west, north_east } gestures keep the camera's target in (R66), as GMSMapView.cameraTargetBounds; nil (the default) lifts them. Moves made by code are not held (the web policy holds them).",
    get: { bridge, stack, _ in
      guard let bounds = try bridge.requireMap().cameraTargetBounds, let sw = bounds.southWest,
        let ne = bounds.northEast
      else { return stack.pushNil() }
      stack.newTable(arrayCount: 2)
      LuaValues.push(sw, on: stack)
      stack.rawSetIndex(1, ofTableAt: -2)
      LuaValues.push(ne, on: stack)
      stack.rawSetIndex(2, ofTableAt: -2)
    },
    set: { bridge, stack, _, value in
      let map = try bridge.requireMap()
      if LuaValues.isNil(value, on: stack) { return try map.setCameraTargetBounds(nil) }
      let field = "map.camera_target_bounds"
      guard stack.type(at: value) == .table else {
        throw LuaValues.typeError(field, expected: "{ south_west, north_east } or nil", at: value, on: stack)
      }
      var budget = LuaValues.maxFields
      let count = try LuaValues.listLength(at: value, on: stack, field: field, budget: &budget)
      guard count == 2 else {
        throw LuaFunctionError("\(field): expected two corners { south_west, north_east }, got \(count)")
      }
      var corners: [Coordinate] = []
      for index in 1...2 {
        stack.rawGetIndex(index, ofTableAt: value)
        defer { stack.pop() }
        corners.append(try LuaValues.coordinate(at: stack.top, on: stack, field: "\(field)[\(index)]"))
      }
      guard corners[1].latitude >= corners[0].latitude else {
        throw LuaFunctionError(
          "\(field)[2].lat: \(formatNumber(corners[1].latitude)) is south of \(field)[1].lat"
            + " (\(formatNumber(corners[0].latitude))); the corners are { south_west, north_east }")
      }
      try map.setCameraTargetBounds(try CoordinateBounds(northEast: corners[1], southWest: corners[0]))
    })

  private static var gestureFlags: [(String, WritableKeyPath<GestureSettings, Bool>)] {
    [
      ("scroll", \.scrollGestures), ("zoom", \.zoomGestures), ("rotate", \.rotateGestures), ("tilt", \.tiltGestures),
      ("allow_scroll_during_rotate_or_zoom", \.allowScrollGesturesDuringRotateOrZoom),
    ]
  }
}
