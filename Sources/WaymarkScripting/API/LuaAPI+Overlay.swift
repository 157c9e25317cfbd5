import LuaKit
import WaymarkCore

extension LuaAPI {
  /// A field of an overlay table: its LuaLS type, and the kinds that have it (nil: every kind).
  struct OverlayField: Sendable {
    let name: String
    let type: String
    let kinds: [String]?
  }

  /// The overlay kinds, as `kind` spells them.
  static let overlayKinds = ["polyline", "polygon", "circle", "ground_overlay"]

  /// Every field an overlay table may hold: the `OverlayOptions` shape and `add_overlay`'s
  /// known fields for each kind both come from here.
  static let overlayFields: [OverlayField] = [
    OverlayField(name: "kind", type: "'polyline'|'polygon'|'circle'|'ground_overlay'?", kinds: nil),
    OverlayField(name: "id", type: "string?", kinds: nil),
    OverlayField(name: "tappable", type: "boolean?", kinds: nil),
    OverlayField(name: "z_index", type: "integer?", kinds: nil),
    OverlayField(name: "title", type: "string?", kinds: nil),
    OverlayField(name: "stroke_color", type: "string?", kinds: nil),
    OverlayField(name: "fill_color", type: "string?", kinds: nil),
    OverlayField(name: "path", type: "Coordinate[]?", kinds: ["polyline", "polygon"]),
    OverlayField(name: "width", type: "number?", kinds: ["polyline", "polygon", "circle"]),
    OverlayField(name: "holes", type: "Coordinate[][]?", kinds: ["polygon"]),
    OverlayField(name: "center", type: "Coordinate?", kinds: ["circle"]),
    OverlayField(name: "radius", type: "number?", kinds: ["circle"]),
    OverlayField(name: "bounds", type: "Coordinate[]?", kinds: ["ground_overlay"]),
    OverlayField(name: "image", type: "string?", kinds: ["ground_overlay"]),
    OverlayField(name: "user_data", type: "any", kinds: nil),
  ]

  /// `Overlay`, and the map's overlay methods (added to `Map`).
  static let overlayEntries: [LuaAPIEntry] =
    [
      .method(
        "Map", "add_overlay", [.init("options", "OverlayOptions")], returns: "Overlay",
        "Adds an overlay { kind = 'polyline'|'polygon'|'circle'|'ground_overlay', ... } (R15).",
        { bridge, context in try addOverlay(bridge, context, kind: nil) })
    ]
    + overlayKinds.map { kind in
      .method(
        "Map", "add_\(kind)", [.init("options", "OverlayOptions")], returns: "Overlay",
        "Adds a \(kind.replacingOccurrences(of: "_", with: " ")); same as add_overlay with kind = '\(kind)'.",
        { bridge, context in try addOverlay(bridge, context, kind: kind) })
    } + [
      .method(
        "Map", "remove_overlay", [.init("overlay", "Overlay")], "Removes an overlay; same as overlay.map = nil.",
        { bridge, context in
          try bridge.requireMap().remove(try context.checkObject(2, as: LuaMapBridge.overlayType))
          return 0
        }),
      .method(
        "Map", "overlays", returns: "Overlay[]", "Every overlay on the map, in the order they were added.",
        { bridge, context in
          let overlays = try bridge.requireMap().overlays
          context.stack.newTable(arrayCount: Int32(clamping: overlays.count))
          for (i, overlay) in overlays.enumerated() {
            bridge.push(overlay, on: context.stack)
            context.stack.rawSetIndex(i + 1, ofTableAt: -2)
          }
          return 1
        }),
      .property(
        "Overlay", "id", "string", "The name in traces and scripts: the id given, else overlay-N (read-only).",
        get: { _, stack, object in stack.push(try overlay(at: object, on: stack).id) }),
      .property(
        "Overlay", "kind", "'polyline'|'polygon'|'circle'|'ground_overlay'", "The overlay's shape (read-only).",
        get: { _, stack, object in stack.push(try overlay(at: object, on: stack).shape.kind) }),
      .property(
        "Overlay", "tappable", "boolean", "Whether taps hit it (R15); false by default.",
        get: { _, stack, object in stack.push(try overlay(at: object, on: stack).tappable) },
        set: { _, stack, object, value in
          let flag = try LuaValues.boolean(at: value, on: stack, field: "overlay.tappable")
          try overlay(at: object, on: stack).update { $0.tappable = flag }
        }),
      .property(
        "Overlay", "z_index", "integer", "Higher wins taps among overlays (R15).",
        get: { _, stack, object in stack.push(Int(try overlay(at: object, on: stack).zIndex)) },
        set: { _, stack, object, value in
          let z = try LuaValues.zIndex(at: value, on: stack, field: "overlay.z_index")
          try overlay(at: object, on: stack).update { $0.zIndex = z }
        }),
      .property(
        "Overlay", "title", "string?", "A title, for renderers and scripts.",
        get: { _, stack, object in LuaValues.push(try overlay(at: object, on: stack).options.title, on: stack) },
        set: { _, stack, object, value in
          let title = try LuaValues.optionalString(at: value, on: stack, field: "overlay.title")
          try overlay(at: object, on: stack).update { $0.title = title }
        }),
      .property(
        "Overlay", "user_data", "any",
        "Any value kept with the overlay (GMSOverlay.userData); other plugins and the script see a plain-data copy of what was last assigned.",
        get: { bridge, stack, object in bridge.pushUserData(of: object, on: stack) },
        set: { bridge, stack, object, value in try bridge.setUserData(of: object, to: value, on: stack) }),
      .property(
        "Overlay", "width", "number?",
        "A polyline's width, or a polygon's or circle's outline width, in points (nil: the default outline of 1.5).",
        get: { _, stack, object in
          let overlay = try overlay(at: object, on: stack)
          if case .polyline(_, let width) = overlay.shape {
            stack.push(width)
          } else if let width = overlay.options.strokeWidth {
            stack.push(width)
          } else {
            stack.pushNil()
          }
        },
        set: { _, stack, object, value in
          let overlay = try overlay(at: object, on: stack)
          let width =
            LuaValues.isNil(value, on: stack)
            ? nil : try LuaValues.number(at: value, on: stack, field: "\(overlay.shape.kind).width")
          try overlay.update { options in
            if case .polyline(let path, _) = options.shape {
              options.shape = .polyline(path: path, width: width ?? 1)
            } else {
              options.strokeWidth = width
            }
          }
        }),
      .property(
        "Overlay", "map", "Map?", "The map it is on, nil once removed; assign nil to remove it.",
        get: { bridge, stack, object in
          let overlay = try overlay(at: object, on: stack)
          if let map = bridge.map, overlay.map === map { bridge.pushMap(on: stack) } else { stack.pushNil() }
        },
        set: { bridge, stack, object, value in
          guard LuaValues.isNil(value, on: stack) else {
            throw LuaFunctionError("overlay.map: only nil can be assigned (use map:add_overlay to add)")
          }
          let overlay = try overlay(at: object, on: stack)
          if let map = bridge.map, overlay.map === map { try map.remove(overlay) }
        }),
    ]

  static func overlay(at index: Int32, on stack: LuaStack) throws(LuaFunctionError) -> Overlay {
    guard let overlay = stack.object(at: index, as: LuaMapBridge.overlayType) else {
      throw LuaValues.typeError("overlay", expected: "an overlay", at: index, on: stack)
    }
    return overlay
  }

  private static func addOverlay(_ bridge: LuaMapBridge, _ context: LuaCallContext, kind fixed: String?) throws
    -> Int32
  {
    let stack = context.stack
    try context.checkTable(2)
    let kind: String
    if let fixed {
      kind = fixed
    } else {
      kind = try LuaAPIShape.overlayOptions.withField("kind", ofTableAt: 2, on: stack) { v throws(LuaFunctionError) in
        try LuaValues.string(at: v, on: stack, field: "add_overlay.kind")
      }
    }
    guard overlayKinds.contains(kind) else {
      throw LuaFunctionError(
        "add_overlay.kind: \"\(kind)\" is not one of \(overlayKinds.joined(separator: ", "))\(Suggestion.hint(for: kind, among: overlayKinds))"
      )
    }
    let allowed = overlayFields.filter { $0.kinds?.contains(kind) ?? true }.map(\.name)
    try LuaValues.requireKnownFields(ofTableAt: 2, on: stack, allowed: allowed, what: "add_\(kind)")
    func field<R>(_ key: String, _ body: (Int32) throws(LuaFunctionError) -> R) throws(LuaFunctionError) -> R {
      try LuaAPIShape.overlayOptions.withField(key, ofTableAt: 2, on: stack, body)
    }
    var budget = LuaValues.maxCoordinates  // a path and its holes together
    func path(_ key: String, at index: Int32) throws(LuaFunctionError) -> [Coordinate] {
      let name = "\(kind).\(key)"
      guard stack.type(at: index) == .table else {
        throw LuaValues.typeError(name, expected: "a list of coordinates", at: index, on: stack)
      }
      var points: [Coordinate] = []
      let count = try LuaValues.listLength(at: index, on: stack, field: name, budget: &budget)
      for i in stride(from: 1, through: count, by: 1) {
        stack.rawGetIndex(i, ofTableAt: index)
        defer { stack.pop() }
        points.append(try LuaValues.coordinate(at: stack.top, on: stack, field: "\(name)[\(i)]"))
      }
      return points
    }
    let shape: OverlayShape
    var strokeWidth: Double?
    switch kind {
    case "polyline":
      let line = try field("path") { v throws(LuaFunctionError) in try path("path", at: v) }
      let width = try field("width") { v throws(LuaFunctionError) in
        LuaValues.isNil(v, on: stack) ? 1 : try LuaValues.number(at: v, on: stack, field: "polyline.width")
      }
      shape = .polyline(path: line, width: width)
    case "polygon":
      let outer = try field("path") { v throws(LuaFunctionError) in try path("path", at: v) }
      let holes = try field("holes") { v throws(LuaFunctionError) -> [[Coordinate]] in
        guard !LuaValues.isNil(v, on: stack) else { return [] }
        guard stack.type(at: v) == .table else {
          throw LuaValues.typeError("polygon.holes", expected: "a list of paths", at: v, on: stack)
        }
        var holes: [[Coordinate]] = []
        var holeBudget = LuaValues.maxFields
        let count = try LuaValues.listLength(at: v, on: stack, field: "polygon.holes", budget: &holeBudget)
        for i in stride(from: 1, through: count, by: 1) {
          stack.rawGetIndex(i, ofTableAt: v)
          defer { stack.pop() }
          holes.append(try path("holes[\(i)]", at: stack.top))
        }
        return holes
      }
      shape = .polygon(outer: outer, holes: holes)
      strokeWidth = try field("width") { v throws(LuaFunctionError) in
        LuaValues.isNil(v, on: stack) ? nil : try LuaValues.number(at: v, on: stack, field: "polygon.width")
      }
    case "circle":
      let center = try field("center") { v throws(LuaFunctionError) in
        try LuaValues.coordinate(at: v, on: stack, field: "circle.center")
      }
      let radius = try field("radius") { v throws(LuaFunctionError) in
        try LuaValues.number(at: v, on: stack, field: "circle.radius")
      }
      shape = .circle(center: center, radius: radius)
      strokeWidth = try field("width") { v throws(LuaFunctionError) in
        LuaValues.isNil(v, on: stack) ? nil : try LuaValues.number(at: v, on: stack, field: "circle.width")
      }
    default:
      let corners = try field("bounds") { v throws(LuaFunctionError) in try path("bounds", at: v) }
      guard corners.count == 2 else {
        throw LuaFunctionError("ground_overlay.bounds: expected two corners, got \(corners.count)")
      }
      let image = try field("image") { v throws(LuaFunctionError) in
        try LuaValues.string(at: v, on: stack, field: "ground_overlay.image")
      }
      shape = .groundOverlay(bounds: try CoordinateBounds(corners[0], corners[1]), image: image)
    }
    var options = OverlayOptions(shape: shape)
    options.strokeWidth = strokeWidth
    options.id = try field("id") { v throws(LuaFunctionError) in
      try LuaValues.optionalString(at: v, on: stack, field: "overlay.id")
    }
    options.tappable = try field("tappable") { v throws(LuaFunctionError) in
      LuaValues.isNil(v, on: stack) ? false : try LuaValues.boolean(at: v, on: stack, field: "overlay.tappable")
    }
    options.zIndex = try field("z_index") { v throws(LuaFunctionError) in
      LuaValues.isNil(v, on: stack) ? 0 : try LuaValues.zIndex(at: v, on: stack, field: "overlay.z_index")
    }
    for (key, path) in [
      ("title", \OverlayOptions.title), ("stroke_color", \.strokeColor), ("fill_color", \.fillColor),
    ] {
      options[keyPath: path] = try field(key) { v throws(LuaFunctionError) in
        try LuaValues.optionalString(at: v, on: stack, field: "overlay.\(key)")
      }
    }
    try bridge.quota.requireRoomForObject("add_overlay")
    let map = try bridge.requireMap()
    let overlay = try map.addOverlay(options)
    bridge.quota.added(overlay)
    bridge.push(overlay, on: stack)
    if stack.withStackBalance({ stack.rawGetField("user_data", ofTableAt: 2) != .nil }) {
      stack.rawGetField("user_data", ofTableAt: 2)
      defer { stack.pop() }
      do { try bridge.setUserData(of: -2, to: -1, on: stack) } catch {
        try? map.remove(overlay)  // nothing half-applied: no overlay without its user_data
        throw error
      }
    }
    return 1
  }
}
