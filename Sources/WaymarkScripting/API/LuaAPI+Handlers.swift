import WaymarkCore

/// The signature of a plugin handler or lifecycle function, for docs and LuaLS definitions.
public struct LuaHandlerSignature: Sendable, Hashable {
  /// The field name in the plugin table (`did_tap_marker`, `setup`, ...).
  public let name: String
  /// The parameters, `map` first for handlers.
  public let parameters: [LuaAPIParameter]
  /// The LuaLS return type, nil when the return value is ignored.
  public let returns: String?
  /// One line.
  public let doc: String

  /// `fun(map: Map, marker: Marker): boolean?`.
  public var functionType: String {
    "fun(\(parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ")))"
      + (returns.map { ": \($0)" } ?? "")
  }
}

/// A plain table shape of the API (`Coordinate`, `Camera`, ...), for LuaLS `---@class`.
public struct LuaAPIShape: Sendable, Hashable {
  /// The class name.
  public let name: String
  /// One line.
  public let doc: String
  /// Fields and their LuaLS types, in order.
  public let fields: [LuaAPIParameter]
}

extension LuaAPI {
  /// The 23 handlers of section 1 of the map semantics, in its order, called as
  /// `handler(map, ...)`.
  public static let handlers: [LuaHandlerSignature] = DelegateCallback.allCases.map { callback in
    let returns: String?
    let doc: String
    switch callback.composition {
    case .veto:
      returns = "boolean?"
      doc = "Veto: return true to handle the event (later plugins are not asked, the default is skipped)."
    case .content:
      returns = "Content?"
      doc = "Content: the first non-nil answer wins (R7)."
    case .notification:
      returns = callback == .didTapPOI ? "boolean?" : nil
      doc =
        callback == .didTapPOI
        ? "Notification; under the web policy, true from any plugin stops the default POI window (R33)."
        : "Notification: every plugin is called."
    }
    let parameters =
      [LuaAPIParameter("map", "Map")] + callback.argumentNames.map { LuaAPIParameter($0, handlerArgumentType($0)) }
    return LuaHandlerSignature(name: callback.rawValue, parameters: parameters, returns: returns, doc: doc)
  }

  /// The lifecycle fields of a plugin table.
  public static let lifecycle: [LuaHandlerSignature] = [
    LuaHandlerSignature(
      name: "setup", parameters: [.init("map", "Map")], returns: nil,
      doc: "Called once after every plugin of the folder loaded, in priority order."),
    LuaHandlerSignature(
      name: "teardown", parameters: [.init("map", "Map")], returns: nil,
      doc: "Called before the plugin is replaced by a reload or unloaded."),
    LuaHandlerSignature(
      name: "save_state", parameters: [], returns: "any",
      doc: "Called on the old version before a reload; its plain-data result is on_reload's old_state."),
    LuaHandlerSignature(
      name: "on_reload", parameters: [.init("old_state", "any"), .init("map", "Map")], returns: nil,
      doc: "Called on the new version after setup, with the old version's state (save_state(), else its `state` field)."
    ),
  ]

  /// The plain table shapes used by the API.
  public static let shapes: [LuaAPIShape] = [
    LuaAPIShape(
      name: "Coordinate", doc: "A coordinate in degrees; { lat, lng } also works.",
      fields: [.init("lat", "number"), .init("lng", "number")]),
    LuaAPIShape(
      name: "Point", doc: "A screen point in points, x right, y down.",
      fields: [.init("x", "number"), .init("y", "number")]),
    LuaAPIShape(name: "Size", doc: "A size in points.", fields: [.init("width", "number"), .init("height", "number")]),
    LuaAPIShape(
      name: "Camera", doc: "A camera; in an update, only the fields present change (R26).",
      fields: [
        .init("target", "Coordinate?"), .init("zoom", "number?"), .init("bearing", "number?"), .init("tilt", "number?"),
      ]),
    LuaAPIShape(
      name: "CameraUpdate", doc: "One verb per table (R28); see docs/plugins.md.",
      fields: [
        .init("camera", "Camera?"), .init("zoom_in", "true?"), .init("zoom_out", "true?"), .init("zoom_by", "number?"),
        .init("point", "Point?"), .init("zoom_to", "number?"), .init("scroll_by", "Point?"),
        .init("fit", "Coordinate[]?"),
        .init("padding", "number|{top: number?, left: number?, bottom: number?, right: number?}?"),
      ]),
    LuaAPIShape(
      name: "AnimationOptions", doc: "Options of map:animate (R27).",
      fields: [.init("duration", "number?"), .init("on_complete", "fun(finished: boolean)?")]),
    LuaAPIShape(
      name: "MarkerAnimationOptions", doc: "Options of map:animate_marker.",
      fields: [
        .init("duration", "number?"), .init("easing", "'linear'|'ease_in_out'|'ease_in'|'ease_out'?"),
        .init("on_complete", "fun(finished: boolean)?"),
      ]),
    LuaAPIShape(
      name: "MarkerOptions", doc: "Marker properties (R1); position is required.",
      fields: MarkerField.all.map { LuaAPIParameter($0.name, $0.name == "position" ? "Coordinate" : optional($0.type)) }
        + [.init("user_data", "any")]),
    LuaAPIShape(
      name: "OverlayOptions", doc: "An overlay: kind and the fields of that kind (R15).",
      fields: [
        .init("kind", "'polyline'|'polygon'|'circle'|'ground_overlay'?"), .init("id", "string?"),
        .init("tappable", "boolean?"),
        .init("z_index", "integer?"), .init("title", "string?"), .init("stroke_color", "string?"),
        .init("fill_color", "string?"),
        .init("path", "Coordinate[]?"), .init("width", "number?"), .init("holes", "Coordinate[][]?"),
        .init("center", "Coordinate?"),
        .init("radius", "number?"), .init("bounds", "Coordinate[]?"), .init("image", "string?"),
      ]),
    LuaAPIShape(
      name: "InfoWindow", doc: "The shown info window.",
      fields: [
        .init("marker", "Marker?"), .init("kind", "'window'|'contents'|'default'"), .init("content", "Content?"),
        .init("x", "number?"), .init("y", "number?"), .init("width", "number?"), .init("height", "number?"),
      ]),
    LuaAPIShape(
      name: "VisibleRegion", doc: "What the camera sees (R29).",
      fields: [
        .init("near_left", "Coordinate"), .init("near_right", "Coordinate"), .init("far_left", "Coordinate"),
        .init("far_right", "Coordinate"),
      ]),
    LuaAPIShape(
      name: "Feature", doc: "A tapped feature of a data-driven styling layer.", fields: [.init("place_id", "string")]),
    LuaAPIShape(
      name: "PointOfInterest", doc: "A point of interest of the base map (R17).",
      fields: [.init("place_id", "string"), .init("name", "string"), .init("location", "Coordinate")]),
    LuaAPIShape(
      name: "FeatureLayer", doc: "A data-driven styling layer whose features can be tapped.",
      fields: [.init("name", "string"), .init("features", "{ place_id: string, boundary: Coordinate[] }[]")]),
    LuaAPIShape(
      name: "MarkerIcon", doc: "A tinted pin or a named image.",
      fields: [
        .init("color", "string?"), .init("image", "string?"), .init("width", "number?"), .init("height", "number?"),
      ]),
    LuaAPIShape(
      name: "IconView", doc: "A custom view standing in for the icon (R3).",
      fields: [.init("name", "string"), .init("width", "number"), .init("height", "number")]),
  ]

  private static func optional(_ type: String) -> String { type.hasSuffix("?") ? type : type + "?" }

  static func handlerArgumentType(_ name: String) -> String {
    switch name {
    case "gesture": "boolean"
    case "camera": "Camera"
    case "coordinate", "location": "Coordinate"
    case "marker": "Marker"
    case "overlay": "Overlay"
    case "place_id", "name", "layer": "string"
    case "capabilities": "table<string, true>"
    case "features": "Feature[]"
    default: "any"
    }
  }
}
