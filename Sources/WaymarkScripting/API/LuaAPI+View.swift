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
      "Which gestures the user may make (R25); assign a table of the ones to change. Code-driven moves always work.",
      get: { bridge, stack, _ in
        let settings = try bridge.requireMap().settings
        stack.newTable(fieldCount: 4)
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
  ]

  private static var gestureFlags: [(String, WritableKeyPath<GestureSettings, Bool>)] {
    [("scroll", \.scrollGestures), ("zoom", \.zoomGestures), ("rotate", \.rotateGestures), ("tilt", \.tiltGestures)]
  }
}
