import LuaKit
import WaymarkCore

/// A plain table shape of the API (`Camera`, `AnimationOptions`, ...), declared once: the
/// LuaLS `---@class` is generated from it, and the reader of such a table takes its known
/// fields from it and may read no other (`withField(_:ofTableAt:on:_:)`).
public struct LuaAPIShape: Sendable, Hashable {
  /// The class name.
  public let name: String
  /// One line for the definitions and the docs: what it is.
  public let doc: String
  /// Fields and their LuaLS types, in order.
  public let fields: [LuaAPIParameter]

  /// The field names, in order.
  var fieldNames: [String] { fields.map(\.name) }

  /// Throws if the table at `index` has a string key this shape does not declare, suggesting
  /// the closest one (`animate options: unknown field 'duratoin'; did you mean duration?`).
  package func requireKnownFields(ofTableAt index: Int32, on stack: LuaStack, what: String) throws(LuaFunctionError) {
    try LuaValues.requireKnownFields(ofTableAt: index, on: stack, allowed: fieldNames, what: what)
  }

  /// Calls `body` with the index of `table[name]` pushed, then pops it. `name` must be a field
  /// of this shape: a reader cannot accept what the definitions do not declare.
  package func withField<R>(
    _ name: String, ofTableAt table: Int32, on stack: LuaStack, _ body: (Int32) throws(LuaFunctionError) -> R
  ) throws(LuaFunctionError) -> R {
    precondition(fields.contains { $0.name == name }, "\(self.name).\(name) is read but not declared")
    return try LuaValues.withField(name, ofTableAt: table, on: stack, body)
  }
}

extension LuaAPI {
  /// Every table shape of the API, for the definitions.
  public static let shapes: [LuaAPIShape] = [
    .coordinate, .point, .offset, .size, .insets, .camera, .cameraUpdate, .animationOptions, .markerAnimationOptions,
    .markerAnimationTarget,
    .gestureOptions, .pinchOptions, .rotateOptions, .gestureFlags, .markerOptions, .overlayOptions, .infoWindow,
    .visibleRegion, .feature, .pointOfInterest, .featureLayer, .markerIcon, .iconView, .mapOptions, .clock, .traceRecord,
    .traceCamera, .clusterOptions, .clusterItem, .cluster, .featureCollection, .featureFields,
  ]
}

extension LuaAPIShape {
  /// `{ lat, lng }`.
  static let coordinate = LuaAPIShape(
    name: "Coordinate", doc: "A coordinate in degrees; { lat, lng } also works.",
    fields: [.init("lat", "number"), .init("lng", "number")])
  /// `{ x, y }`.
  static let point = LuaAPIShape(
    name: "Point", doc: "A screen point in points, x right, y down.",
    fields: [.init("x", "number"), .init("y", "number")])
  /// `{ x, y }` as a movement.
  static let offset = LuaAPIShape(
    name: "Offset", doc: "A movement in points, x right, y down; a missing one is 0.",
    fields: [.init("x", "number?"), .init("y", "number?")])
  /// `{ width, height }`.
  package static let size = LuaAPIShape(
    name: "Size", doc: "A size in points.", fields: [.init("width", "number"), .init("height", "number")])
  /// `{ top, left, bottom, right }`.
  static let insets = LuaAPIShape(
    name: "Insets", doc: "Insets in points from each edge; a number sets all four.",
    fields: [.init("top", "number?"), .init("left", "number?"), .init("bottom", "number?"), .init("right", "number?")])
  /// A camera, whole or in part.
  static let camera = LuaAPIShape(
    name: "Camera", doc: "A camera; in an update, only the fields present change (R26).",
    fields: [
      .init("target", "Coordinate?"), .init("zoom", "number?"), .init("bearing", "number?"), .init("tilt", "number?"),
    ])
  /// The verbs of a camera update and their modifiers.
  static let cameraUpdate = LuaAPIShape(
    name: "CameraUpdate", doc: "One verb per table (R28), with its modifier; see docs/plugins.md.",
    fields: [
      .init("camera", "Camera?"), .init("zoom_in", "true?"), .init("zoom_out", "true?"), .init("zoom_by", "number?"),
      .init("point", "Point?"), .init("zoom_to", "number?"), .init("scroll_by", "Offset?"),
      .init("fit", "Coordinate[]?"), .init("padding", "number|Insets|nil"),
    ])
  /// `map:animate`'s options.
  static let animationOptions = LuaAPIShape(
    name: "AnimationOptions", doc: "Options of map:animate (R27).",
    fields: [.init("duration", "number?"), .init("on_complete", "fun(finished: boolean)?")])
  /// `map:animate_marker`'s options.
  static let markerAnimationOptions = LuaAPIShape(
    name: "MarkerAnimationOptions", doc: "Options of map:animate_marker.",
    fields: [
      .init("duration", "number?"), .init("easing", "'linear'|'ease_in_out'|'ease_in'|'ease_out'?"),
      .init("on_complete", "fun(finished: boolean)?"),
    ])
  /// The options of a gesture or a drag.
  static let gestureOptions = LuaAPIShape(
    name: "GestureOptions", doc: "Options of a gesture or a drag: how long the finger moves.",
    fields: [.init("duration", "number?")])
  /// The options of a pinch.
  static let pinchOptions = LuaAPIShape(
    name: "PinchOptions",
    doc:
      "Options of map:pinch: the point that stays fixed (the centre by default), how far the fingers move as they pinch (R67).",
    fields: [.init("point", "Point?"), .init("pan", "Offset?"), .init("duration", "number?")])
  /// The options of a rotation.
  static let rotateOptions = LuaAPIShape(
    name: "RotateOptions",
    doc:
      "Options of map:rotate: the point the map turns about (the centre by default), how far the fingers move as they turn (R67).",
    fields: [.init("point", "Point?"), .init("pan", "Offset?"), .init("duration", "number?")])
  /// Which gestures the user may make.
  static let gestureFlags = LuaAPIShape(
    name: "GestureFlags", doc: "Which gestures the user may make (R25).",
    fields: [
      .init("scroll", "boolean?"), .init("zoom", "boolean?"), .init("rotate", "boolean?"), .init("tilt", "boolean?"),
      .init("allow_scroll_during_rotate_or_zoom", "boolean?"),
    ])
  /// A marker's properties, from the marker fields.
  static let markerOptions = LuaAPIShape(
    name: "MarkerOptions", doc: "Marker properties (R1); position is required.",
    fields: MarkerField.all.map {
      LuaAPIParameter($0.name, $0.name == "position" ? "Coordinate" : optionalType($0.type))
    } + [.init("user_data", "any")])
  /// An overlay, from the overlay fields.
  static let overlayOptions = LuaAPIShape(
    name: "OverlayOptions", doc: "An overlay: kind and the fields of that kind (R15).",
    fields: LuaAPI.overlayFields.map { LuaAPIParameter($0.name, $0.type) })
  /// The shown info window.
  static let infoWindow = LuaAPIShape(
    name: "InfoWindow", doc: "The shown info window.",
    fields: [
      .init("marker", "Marker?"), .init("kind", "'window'|'contents'|'default'"), .init("content", "Content?"),
      .init("x", "number?"), .init("y", "number?"), .init("width", "number?"), .init("height", "number?"),
    ])
  /// The corners of what the camera sees.
  static let visibleRegion = LuaAPIShape(
    name: "VisibleRegion", doc: "What the camera sees (R29).",
    fields: [
      .init("near_left", "Coordinate"), .init("near_right", "Coordinate"), .init("far_left", "Coordinate"),
      .init("far_right", "Coordinate"),
    ])
  /// A tapped feature.
  static let feature = LuaAPIShape(
    name: "Feature", doc: "A feature of a data-driven styling layer.",
    fields: [.init("place_id", "string"), .init("boundary", "Coordinate[]?")])
  /// A point of interest.
  static let pointOfInterest = LuaAPIShape(
    name: "PointOfInterest", doc: "A point of interest of the base map (R17).",
    fields: [.init("place_id", "string"), .init("name", "string"), .init("location", "Coordinate")])
  /// A data-driven styling layer.
  static let featureLayer = LuaAPIShape(
    name: "FeatureLayer", doc: "A data-driven styling layer whose features can be tapped.",
    fields: [.init("name", "string"), .init("features", "Feature[]")])
  /// A marker's icon.
  static let markerIcon = LuaAPIShape(
    name: "MarkerIcon",
    doc:
      "A tinted pin { color }, a named image { image, width, height, insets } (insets: R37's alignment rect), or frames shown in turn { frames, duration } (R48).",
    fields: [
      .init("color", "string?"), .init("image", "string?"), .init("width", "number?"), .init("height", "number?"),
      .init("insets", "Insets?"), .init("frames", "MarkerIcon[]?"), .init("duration", "number?"),
    ])
  /// A marker's icon view.
  static let iconView = LuaAPIShape(
    name: "IconView", doc: "A custom view standing in for the icon (R3), tinted by color; live while tracked (R36).",
    fields: [.init("name", "string"), .init("width", "number"), .init("height", "number"), .init("color", "string?")])
  /// `waymark.map{...}`.
  package static let mapOptions = LuaAPIShape(
    name: "MapOptions", doc: "Options of waymark.map (scripts only).",
    fields: [
      .init("camera", "Camera?"), .init("size", "Size?"), .init("policy", "'ios'|'android'|'web'|nil"),
      .init("plugins", "string[]?"), .init("padding", "number|Insets|nil"), .init("clock", "Clock?"),
      .init("settings", "table<string, any>?"),
    ])
  /// `waymark.map{ clock = }` and a project's `clock`.
  package static let clock = LuaAPIShape(
    name: "Clock",
    doc:
      "Local time: os.time() counts from start (local time in zone, default 2025-01-01T00:00:00) on the virtual clock; os.date formats local time in zone (an IANA name, default UTC).",
    fields: [.init("start", "string?"), .init("zone", "string?")])
  /// A record of `map:trace()`, as `--trace json` has it.
  static let traceRecord = LuaAPIShape(
    name: "TraceRecord",
    doc: "A record of map:trace(): the object of a --trace json line (docs/trace-format.md); a null is nil.",
    fields: [
      .init("t", "number"), .init("event", "string"), .init("marker", "string?"), .init("overlay", "string?"),
      .init("camera", "TraceCamera?"), .init("gesture", "boolean?"), .init("coordinate", "Coordinate?"),
      .init("result", "boolean|'content'|nil"), .init("plugin", "string?"), .init("message", "string?"),
      .init("kind", "string?"), .init("place_id", "string?"), .init("name", "string?"), .init("layer", "string?"),
      .init("features", "string[]?"), .init("capabilities", "string[]?"), .init("handler", "string?"),
      .init("file", "string?"), .init("line", "integer?"), .init("view", "string?"), .init("zoom", "number?"),
      .init("clusters", "integer?"), .init("markers", "integer?"),
    ])
  /// The camera of a trace record: flat, unlike ``camera``.
  static let traceCamera = LuaAPIShape(
    name: "TraceCamera", doc: "The camera of a trace record.",
    fields: [
      .init("lat", "number"), .init("lng", "number"), .init("zoom", "number"), .init("bearing", "number"),
      .init("tilt", "number"),
    ])

  /// A GeoJSON FeatureCollection, as `waymark.data.geojson` returns it.
  static let featureCollection = LuaAPIShape(
    name: "FeatureCollection",
    doc: "A GeoJSON FeatureCollection (RFC 7946): its Point features become markers in map:add_markers.",
    fields: [.init("type", "string"), .init("features", "table[]")])
  /// `fields` of `map:add_markers`.
  static let featureFields = LuaAPIShape(
    name: "FeatureFields",
    doc: "Which properties of a feature give a marker's title and snippet (default: those names).",
    fields: [.init("title", "string?"), .init("snippet", "string?")])

  private static func optionalType(_ type: String) -> String { type.hasSuffix("?") ? type : type + "?" }
}
