import LuaKit
import WaymarkCore

/// Reads a camera update written as a Lua table (R28). One regular shape per update:
///
/// | Lua | update |
/// | --- | --- |
/// | `{ target = {lat=,lng=}, zoom =, bearing =, tilt = }` (any of them) | change those fields only (R26) |
/// | `{ camera = { target =, zoom =, bearing =, tilt = } }` | set the whole camera |
/// | `{ zoom_in = true }`, `{ zoom_out = true }` | zoom by +1 / -1 |
/// | `{ zoom_by = 2, point = {x=,y=} }` | zoom by a delta, the point fixed on screen |
/// | `{ zoom_to = 12 }` | zoom to a level |
/// | `{ scroll_by = {x=,y=} }` | scroll by points (x right, y down) |
/// | `{ fit = { {lat,lng}, {lat,lng}, ... }, padding = 50 }` | fit the coordinates (padding a number or `{top,left,bottom,right}`, default 64) |
package enum CameraUpdateReader {
  /// The verbs; at most one per table, with its modifiers (all fields of
  /// ``LuaAPIShape/cameraUpdate``).
  static let verbs: [String: [String]] = [
    "camera": [], "zoom_in": [], "zoom_out": [], "zoom_by": ["point"], "zoom_to": [],
    "scroll_by": [], "fit": ["padding"],
  ]
  /// The fields of a plain camera table.
  static let cameraFields = LuaAPIShape.camera.fieldNames

  /// The update in the table at `index`. `what` names it in errors (`animate`).
  static func read(at index: Int32, on stack: LuaStack, what: String) throws(LuaFunctionError)
    -> CameraUpdate
  {
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError(
        what, expected: "a camera table or a camera update table", at: index, on: stack)
    }
    let index = stack.absoluteIndex(index)
    let keys = try LuaValues.fieldKeys(ofTableAt: index, on: stack, what: what).compactMap { key -> String? in
      if case .string(let name) = key { return name }
      return nil
    }
    let present = keys.filter { verbs[$0] != nil }
    guard let verb = present.first else {
      try LuaValues.requireKnownFields(
        ofTableAt: index, on: stack, allowed: cameraFields + verbs.keys.sorted(), what: what)
      let change = try readChange(at: index, on: stack, what: what)
      guard change != CameraChange() else {
        throw LuaFunctionError(
          "\(what): an empty camera update; give target, zoom, bearing or tilt, or one of \(verbs.keys.sorted().joined(separator: ", "))"
        )
      }
      return .change(change)
    }
    guard present.count == 1 else {
      throw LuaFunctionError("\(what): \(present[0]) cannot be combined with \(present[1])")
    }
    if let field = keys.first(where: { cameraFields.contains($0) }) {
      throw LuaFunctionError(mixed(field, with: verb, what: what))
    }
    try LuaValues.requireKnownFields(
      ofTableAt: index, on: stack, allowed: [verb] + verbs[verb]!, what: what)
    let field = "\(what).\(verb)"
    return try LuaAPIShape.cameraUpdate.withField(verb, ofTableAt: index, on: stack) {
      value throws(LuaFunctionError) -> CameraUpdate in
      switch verb {
      case "zoom_in", "zoom_out":
        guard stack.type(at: value) == .boolean, stack.boolean(at: value) else {
          throw LuaValues.typeError(field, expected: "true", at: value, on: stack)
        }
        return verb == "zoom_in" ? .zoomIn : .zoomOut
      case "zoom_to":
        return .zoomTo(try LuaValues.number(at: value, on: stack, field: field))
      case "zoom_by":
        let delta = try LuaValues.number(at: value, on: stack, field: field)
        let point = try LuaAPIShape.cameraUpdate.withField("point", ofTableAt: index, on: stack) {
          p throws(LuaFunctionError) -> Point? in
          LuaValues.isNil(p, on: stack)
            ? nil : try LuaValues.point(at: p, on: stack, field: "\(what).point")
        }
        return .zoomBy(delta, around: point)
      case "scroll_by":
        let point = try LuaValues.offset(at: value, on: stack, field: field)
        return .scrollBy(dx: point.x, dy: point.y)
      case "camera":
        guard stack.type(at: value) == .table else {
          throw LuaValues.typeError(field, expected: "a camera table", at: value, on: stack)
        }
        return .setCamera(try readPosition(at: value, on: stack, what: field))
      default:  // fit
        return try readFit(list: value, table: index, on: stack, what: what)
      }
    }
  }

  /// What to say when a camera field (`zoom`) is given with a verb (`zoom_by`): the same
  /// at run time and in `waymark check`.
  static func mixed(_ field: String, with verb: String, what: String) -> String {
    let alternatives =
      field == "zoom"
      ? "{ zoom_to = ... }, or { zoom = ... } alone, or { camera = { target = ..., zoom = ... } }"
      : "{ \(field) = ... } alone, or { camera = { target = ..., zoom = ..., \(field) = ... } }"
    return "\(what): \(field) cannot go with \(verb) (one kind of update per table, R28); write \(alternatives)"
  }

  /// The fields present in a camera table.
  static func readChange(at index: Int32, on stack: LuaStack, what: String)
    throws(LuaFunctionError) -> CameraChange
  {
    var change = CameraChange()
    change.target = try LuaAPIShape.camera.withField("target", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) -> Coordinate? in
      LuaValues.isNil(v, on: stack)
        ? nil : try LuaValues.coordinate(at: v, on: stack, field: "\(what).target")
    }
    for (key, path) in [("zoom", \CameraChange.zoom), ("bearing", \.bearing), ("tilt", \.tilt)] {
      change[keyPath: path] = try LuaAPIShape.camera.withField(key, ofTableAt: index, on: stack) {
        v throws(LuaFunctionError) -> Double? in
        LuaValues.isNil(v, on: stack)
          ? nil : try LuaValues.number(at: v, on: stack, field: "\(what).\(key)")
      }
    }
    return change
  }

  /// A whole camera: target and zoom required, bearing and tilt 0 by default.
  package static func readPosition(at index: Int32, on stack: LuaStack, what: String)
    throws(LuaFunctionError) -> CameraPosition
  {
    try LuaAPIShape.camera.requireKnownFields(ofTableAt: index, on: stack, what: what)
    let change = try readChange(at: index, on: stack, what: what)
    guard let target = change.target else { throw LuaFunctionError("\(what).target is required") }
    guard let zoom = change.zoom else { throw LuaFunctionError("\(what).zoom is required") }
    return CameraPosition(
      target: target, zoom: zoom, bearing: change.bearing ?? 0, tilt: change.tilt ?? 0)
  }

  private static func readFit(list: Int32, table: Int32, on stack: LuaStack, what: String)
    throws(LuaFunctionError) -> CameraUpdate
  {
    guard stack.type(at: list) == .table else {
      throw LuaValues.typeError(
        "\(what).fit", expected: "a list of coordinates", at: list, on: stack)
    }
    guard stack.rawLength(at: list) >= 1 else {
      throw LuaFunctionError("\(what).fit: the list of coordinates is empty; give at least one { lat =, lng = } to fit")
    }
    var coordinates: [Coordinate] = []
    var budget = LuaValues.maxCoordinates
    let count = try LuaValues.listLength(at: list, on: stack, field: "\(what).fit", budget: &budget)
    for i in 1...count {
      stack.rawGetIndex(i, ofTableAt: list)
      defer { stack.pop() }
      coordinates.append(
        try LuaValues.coordinate(at: stack.top, on: stack, field: "\(what).fit[\(i)]"))
    }
    let insets = try LuaAPIShape.cameraUpdate.withField("padding", ofTableAt: table, on: stack) {
      p throws(LuaFunctionError) -> EdgeInsets in
      try readInsets(at: p, on: stack, field: "\(what).padding", default: 64)
    }
    do {
      return .fit(try CoordinateBounds(including: coordinates), insets: insets)
    } catch {
      throw error.luaError
    }
  }

  /// Insets: a number for every side, or `{ top =, left =, bottom =, right = }`.
  package static func readInsets(at index: Int32, on stack: LuaStack, field: String, default value: Double)
    throws(LuaFunctionError) -> EdgeInsets
  {
    if LuaValues.isNil(index, on: stack) { return EdgeInsets(all: value) }
    if let all = stack.number(at: index) { return EdgeInsets(all: all) }
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError(
        field, expected: "a number or { top, left, bottom, right }", at: index, on: stack)
    }
    try LuaAPIShape.insets.requireKnownFields(ofTableAt: index, on: stack, what: field)
    var insets = EdgeInsets()
    for (key, path) in [
      ("top", \EdgeInsets.top), ("left", \.left), ("bottom", \.bottom), ("right", \.right),
    ] {
      insets[keyPath: path] = try LuaAPIShape.insets.withField(key, ofTableAt: index, on: stack) {
        v throws(LuaFunctionError) -> Double in
        LuaValues.isNil(v, on: stack) ? 0 : try LuaValues.number(at: v, on: stack, field: "\(field).\(key)")
      }
    }
    return insets
  }
}
