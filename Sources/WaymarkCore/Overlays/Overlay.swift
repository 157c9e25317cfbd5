/// The geometry of a non-marker overlay (R15).
public enum OverlayShape: Hashable, Sendable {
  /// A line through the path, `width` points wide.
  case polyline(path: [Coordinate], width: Double)
  /// A filled area: the outer ring and holes cut out of it.
  case polygon(outer: [Coordinate], holes: [[Coordinate]])
  /// A circle on the ground, radius in meters.
  case circle(center: Coordinate, radius: Double)
  /// An image laid on the ground over `bounds`.
  case groundOverlay(bounds: CoordinateBounds, image: String)

  /// The kind's snake_case name, as scripts and traces spell it.
  package var kind: String {
    switch self {
    case .polyline: "polyline"
    case .polygon: "polygon"
    case .circle: "circle"
    case .groundOverlay: "ground_overlay"
    }
  }

  /// This shape if its values are usable; otherwise an error naming the field.
  func validated() throws(MapError) -> OverlayShape {
    switch self {
    case .polyline(let path, let width):
      guard !path.isEmpty else { throw .invalidValue(field: "polyline.path", value: "[]", reason: "is empty") }
      for (index, point) in path.enumerated() { _ = try point.validated("polyline.path[\(index + 1)]") }
      try MapError.requireNonNegative(width, "polyline.width")
    case .polygon(let outer, let holes):
      guard outer.count >= 3 else {
        throw .invalidValue(field: "polygon.path", value: "\(outer.count) points", reason: "needs at least 3")
      }
      for (index, point) in outer.enumerated() { _ = try point.validated("polygon.path[\(index + 1)]") }
      for (h, hole) in holes.enumerated() {
        for (index, point) in hole.enumerated() { _ = try point.validated("polygon.holes[\(h + 1)][\(index + 1)]") }
      }
    case .circle(let center, let radius):
      _ = try center.validated("circle.center")
      try MapError.requireNonNegative(radius, "circle.radius")
    case .groundOverlay(let bounds, _):
      guard bounds.isValid else {
        throw .invalidValue(field: "groundOverlay.bounds", value: "empty", reason: "is not valid bounds")
      }
    }
    return self
  }
}

/// Everything about an overlay: its shape, whether taps hit it (false by default, R15),
/// its z-index, colours for renderers and a title.
public struct OverlayOptions: Hashable, Sendable {
  /// A stable name for traces and scripts; nil gives `overlay-N` in order of creation.
  public var id: String?
  /// The geometry.
  public var shape: OverlayShape
  /// Whether taps hit it (R15); false by default.
  public var tappable = false
  /// Higher is on top and wins taps among overlays (R15); 0 by default.
  public var zIndex: Int32 = 0
  /// A title, for renderers and scripts.
  public var title: String?
  /// Stroke colour ("#RRGGBB"), for renderers.
  public var strokeColor: String?
  /// Fill colour ("#RRGGBB"), for renderers.
  public var fillColor: String?
  /// The outline's width in points of a polygon or circle (`GMSPolygon.strokeWidth`), for
  /// renderers; nil draws the default 1.5. A polyline's width is its shape's.
  public var strokeWidth: Double?

  /// Options for an overlay of `shape`, other values at their defaults.
  public init(shape: OverlayShape, id: String? = nil, tappable: Bool = false, zIndex: Int32 = 0) {
    self.shape = shape
    self.id = id
    self.tappable = tappable
    self.zIndex = zIndex
  }
}

/// A polyline, polygon, circle or ground overlay on a map, like `GMSOverlay`.
///
/// Create overlays with `MapView.addOverlay(_:)`; read any property of ``OverlayOptions``
/// directly (`overlay.zIndex`); change them with ``update(_:)``.
@dynamicMemberLookup
public final class Overlay {
  /// The overlay's number on its map, 1, 2, 3... in order of creation.
  package let serial: Int
  /// The map it is on, nil once removed, as the overlay sees it (`MapView`'s `map`, declared
  /// with the map, reads it).
  weak var owner: (any OverlayOwner)?
  /// Every property of the overlay, as last set (R15).
  public private(set) var options: OverlayOptions
  /// Any value kept with the overlay, as `GMSOverlay.userData`; the map never reads it.
  public var userData: AnyObject?

  init(serial: Int, options: OverlayOptions) {
    self.serial = serial
    self.options = options
  }

  /// Any property of the overlay by its name in ``OverlayOptions``: `overlay.tappable`,
  /// `overlay.zIndex`, `overlay.shape` (R15).
  public subscript<Value>(dynamicMember property: KeyPath<OverlayOptions, Value>) -> Value {
    options[keyPath: property]
  }

  /// The name in traces and scripts: the explicit id, else `overlay-N`.
  public var id: String { options.id ?? "\(Self.generatedIDPrefix)\(serial)" }
  /// What a generated id (`overlay-N`, N the serial) starts with.
  package static let generatedIDPrefix = "overlay-"
  /// The geometry.
  package var shape: OverlayShape { options.shape }
  /// Whether taps hit it (R15).
  package var tappable: Bool { options.tappable }
  /// Higher wins taps among overlays (R15).
  package var zIndex: Int32 { options.zIndex }

  /// Changes properties atomically: all of `change` applies if valid, else nothing.
  public func update(_ change: (inout OverlayOptions) throws -> Void) throws {
    var new = options
    try change(&new)
    new.shape = try new.shape.validated()
    try new.checkTexts()
    try new.checkStrokeWidth()
    if new.id != options.id {
      throw MapError.invalidValue(field: "overlay.id", value: new.id ?? "nil", reason: "cannot change (it is \(id))")
    }
    options = new
    owner?.overlayDidChange(self)
  }
}

/// The map an overlay is on, as overlays see it. Only `MapView` conforms; the map is declared
/// above the overlays (docs/architecture.md, "Modules").
protocol OverlayOwner: AnyObject {
  /// An overlay of the map changed (an update of its options).
  func overlayDidChange(_ overlay: Overlay)
}

extension OverlayOptions {
  /// Throws unless the stroke width is nil or a finite number of points, at least 0, on a
  /// polygon or circle.
  func checkStrokeWidth() throws(MapError) {
    guard let strokeWidth else { return }
    try MapError.requireNonNegative(strokeWidth, "\(shape.kind).strokeWidth")
    switch shape {
    case .polygon, .circle: return
    case .polyline, .groundOverlay:
      throw .invalidValue(
        field: "\(shape.kind).strokeWidth", value: formatNumber(strokeWidth), reason: "applies to polygons and circles")
    }
  }

  /// Throws unless the id, the title and the colours fit ``TextLimits`` and the colours are
  /// colours (``ContentColor/validate(_:_:)``).
  func checkTexts() throws(MapError) {
    try TextLimits.check(id, atMost: TextLimits.name, "overlay.id")
    try TextLimits.check(title, atMost: TextLimits.text, "overlay.title")
    try TextLimits.check(strokeColor, atMost: TextLimits.name, "overlay.strokeColor")
    try TextLimits.check(fillColor, atMost: TextLimits.name, "overlay.fillColor")
    try ContentColor.validate(strokeColor, "overlay.strokeColor")
    try ContentColor.validate(fillColor, "overlay.fillColor")
  }
}
