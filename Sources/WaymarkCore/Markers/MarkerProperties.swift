/// Every property of a marker but its position and title (R1), with Google's defaults: the
/// one declaration of each. A marker holds one copy and options carry one, so what follows
/// from a declaration is derived from it: its storage and default, its domain (`validate()`,
/// here too), the marker's copy (the whole value), equality (synthesized: the markers of a
/// map at `isDefault` share one copy), reading it on a marker and reading or writing it on
/// options by its name (`marker.zIndex`, `options.opacity = 0.5`: key-path member lookup).
/// WaymarkScripting's marker fields give each its Lua name, and a test walks these
/// declarations to hold them equal (docs/architecture.md, "Where to change things").
public struct MarkerProperties: Equatable {
  /// A stable name used in traces and by scripts; nil gives `marker-N` in order of creation.
  /// It cannot change once the marker exists.
  public var id: Optional<String>
  /// The info window's second line; nil by default.
  public var snippet: Optional<String>
  /// The point of the icon placed at the position, in unit coordinates of the icon
  /// (0,0 top-left, 1,1 bottom-right); bottom centre (0.5, 1) by default.
  public var groundAnchor = MarkerOptions.defaultGroundAnchor
  /// The point of the icon where the info window's tail points, in unit coordinates;
  /// top centre (0.5, 0) by default.
  public var infoWindowAnchor = MarkerOptions.defaultInfoWindowAnchor
  /// How the marker appears when added; none by default.
  public var appearAnimation = MarkerAppearAnimation.none
  /// Whether a long press starts a drag (R18); false by default.
  public var draggable = false
  /// Whether the icon lies flat on the map (turning with the bearing) instead of facing the
  /// screen; false by default.
  public var flat = false
  /// Degrees clockwise the icon is turned about its ground anchor; 0 by default.
  public var rotation = 0.0
  /// 0 (invisible, still tappable: R4) to 1 (opaque); 1 by default.
  public var opacity = 1.0
  /// Higher draws on top and wins taps (R4); 0 by default.
  public var zIndex: Int32 = 0
  /// Whether taps can hit the marker (R4); true by default.
  public var tappable = true
  /// Whether the icon view is redrawn when it changes; true by default.
  public var tracksViewChanges = true
  /// Whether an open default window shows a change of title or snippet at once (a window
  /// that becomes blank closes, the marker staying selected); false by default: the window
  /// keeps what it was shown with until it is hidden and shown again (R7).
  public var tracksInfoWindowChanges = false
  /// The properties most markers leave at their defaults, boxed: one reference to copy and
  /// release instead of four, so that copying the properties of a marker added in bulk
  /// costs little. Copies share the box until one changes it.
  @usableFromInline var rare: RareBox

  /// The icon; the default pin by default.
  public var icon: MarkerIcon {
    get { rare.box?.values.icon ?? RareMarkerProperties.defaults.icon }
    set { rare.write { $0.icon = newValue } }
  }
  /// The icon's alignment rect insets (R37): margins of the icon (a shadow, a glow) that are
  /// drawn but neither tapped nor anchored; the anchors are unit coordinates of the rectangle
  /// inside them. None by default; an icon view has none.
  public var iconInsets: EdgeInsets {
    get { rare.box?.values.iconInsets ?? RareMarkerProperties.defaults.iconInsets }
    set { rare.write { $0.iconInsets = newValue } }
  }
  /// A custom view that wins over the icon (R3); nil by default.
  public var iconView: MarkerIconView? {
    get { rare.box?.values.iconView ?? RareMarkerProperties.defaults.iconView }
    set { rare.write { $0.iconView = newValue } }
  }
  /// Anything the caller wants to keep with the marker; nil by default (compared by
  /// identity).
  public var userData: AnyObject? {
    get { rare.box?.values.userData?.object }
    set { rare.write { $0.userData = newValue.map(ObjectReference.init) } }
  }

  /// Every property at its default (R1), but the id and snippet given. Inlinable, so that a
  /// caller adding markers in bulk builds them in place.
  ///
  /// The optional stored properties are spelled `Optional<...>`: a `T?` property has an
  /// implicit nil value the initializer then overwrites, and the compiler builds such a
  /// value in a temporary it copies out and destroys (about 300 instructions a marker).
  @inlinable
  public init(id: String? = nil, snippet: String? = nil) {
    self.id = id
    self.snippet = snippet
    rare = RareBox()
  }

  /// Whether every property is at its default, as for most markers added in bulk.
  @inlinable package var isDefault: Bool { self == MarkerProperties() }

  /// Whether every property but the id, the snippet and the user data is at its default, as
  /// for markers made from data (a GeoJSON feature's): such a marker is drawn and tapped as
  /// one at its defaults.
  package var isDefaultButTexts: Bool {
    var defaults = MarkerProperties(id: id, snippet: snippet)
    if let box = rare.box {
      var values = box.values
      values.userData = nil
      guard values == .defaults else { return false }
      defaults.rare = rare
    }
    return self == defaults
  }
}

extension MarkerProperties {
  /// The size of what is drawn: the icon view, else the icon, else the default pin (R3).
  package var iconSize: Size {
    if let iconView { return iconView.size }
    if case .image(_, let size) = icon { return size }
    if case .frames(let frames, _) = icon, let first = frames.first { return first.size }
    return MarkerOptions.defaultPinSize
  }

  /// The largest icon side in points: anything bigger is a mistake, and would make every tap
  /// search the whole map for icons that could reach it.
  package static let maxIconSide = 10_000.0

  private static func validateIconSize(_ size: Size, _ field: String) throws(MapError) {
    _ = try size.validated(field)
    for (name, side) in [("width", size.width), ("height", size.height)] where side > maxIconSide {
      throw .invalidValue(
        field: "\(field).\(name)", value: formatNumber(side),
        reason: "is larger than \(formatNumber(maxIconSide)) points")
    }
  }

  /// Throws unless each inset is finite and at least 0 and they leave the icon an area (R37).
  private static func validateInsets(_ insets: EdgeInsets, of size: Size) throws(MapError) {
    guard insets != .zero else { return }
    let field = "marker.icon.insets"
    for (name, inset) in [
      ("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right),
    ] {
      try MapError.requireFinite(inset, "\(field).\(name)")
      if inset < 0 { throw .invalidValue(field: "\(field).\(name)", value: formatNumber(inset), reason: "is below 0") }
    }
    for (first, second, sum, side, name) in [
      ("left", "right", insets.left + insets.right, size.width, "width"),
      ("top", "bottom", insets.top + insets.bottom, size.height, "height"),
    ] where sum >= side {
      throw .invalidValue(
        field: field, value: "\(first) + \(second) = \(formatNumber(sum))",
        reason: "leaves no area: the icon is \(formatNumber(side)) points in \(name)")
    }
  }

  /// Throws an error naming the first property whose value is out of its domain (R1), if any.
  func validate() throws(MapError) {
    try MapError.require(opacity, in: 0...1, "marker.opacity")
    try MapError.requireFinite(rotation, "marker.rotation")
    // Anchors are unit coordinates of the icon, each within 0...1 (R1).
    try MapError.require(groundAnchor.x, in: 0...1, "marker.groundAnchor.x")
    try MapError.require(groundAnchor.y, in: 0...1, "marker.groundAnchor.y")
    try MapError.require(infoWindowAnchor.x, in: 0...1, "marker.infoWindowAnchor.x")
    try MapError.require(infoWindowAnchor.y, in: 0...1, "marker.infoWindowAnchor.y")
    if case .image(_, let size) = icon { try MarkerProperties.validateIconSize(size, "marker.icon") }
    if case .frames(let frames, let duration) = icon {
      try MarkerIcon.validateFrames(frames, duration: duration) { size, field throws(MapError) in
        try MarkerProperties.validateIconSize(size, field)
      }
    }
    if let iconView { try MarkerProperties.validateIconSize(iconView.size, "marker.iconView") }
    if iconView == nil { try MarkerProperties.validateInsets(iconInsets, of: iconSize) }
    if let id, id.isEmpty { throw .invalidValue(field: "marker.id", value: "\"\"", reason: "is empty") }
    try TextLimits.check(id, atMost: TextLimits.name, "marker.id")
    try TextLimits.check(snippet, atMost: TextLimits.text, "marker.snippet")
    if case .tintedPin(let color) = icon {
      try TextLimits.check(color, atMost: TextLimits.name, "marker.icon.color")
      try ContentColor.validate(color, "marker.icon.color")
    }
    if case .image(let name, _) = icon { try TextLimits.check(name, atMost: TextLimits.name, "marker.icon.image") }
    try TextLimits.check(iconView?.name, atMost: TextLimits.name, "marker.iconView.name")
    if let color = iconView?.color {
      try TextLimits.check(color, atMost: TextLimits.name, "marker.iconView.color")
      try ContentColor.validate(color, "marker.iconView.color")
    }
  }
}

/// The values of ``MarkerProperties`` that most markers leave at their defaults.
@usableFromInline struct RareMarkerProperties: Equatable {
  var icon = MarkerIcon.defaultPin
  var iconView: MarkerIconView? = nil
  var iconInsets = EdgeInsets.zero
  var userData: ObjectReference? = nil

  /// Every value at its default.
  static var defaults: RareMarkerProperties { RareMarkerProperties() }
}

/// A reference compared by identity, as `userData` is.
@usableFromInline struct ObjectReference: Equatable {
  let object: AnyObject

  @usableFromInline static func == (a: ObjectReference, b: ObjectReference) -> Bool { a.object === b.object }
}

/// ``RareMarkerProperties`` in a box shared by copies until one writes (none when every
/// value is at its default): equal when the values are.
@usableFromInline struct RareBox: Equatable {
  /// The box; nil for the defaults.
  @usableFromInline var box: Box?

  @usableFromInline final class Box {
    /// Unchecked exclusivity: written only by ``RareBox/write(_:)`` while the box is held by
    /// one copy alone, with a change that reads no other property, so no access overlaps it.
    @exclusivity(unchecked) var values: RareMarkerProperties
    init(_ values: RareMarkerProperties) { self.values = values }

    /// `values.isPinWithoutInsets`, matched in place: asking the values copies them (about
    /// 300 instructions, with a retain and release of each).
    var isPinWithoutInsets: Bool {
      switch values.iconView {
      case .some: return false
      case .none: break
      }
      guard values.iconInsets == .zero else { return false }
      switch values.icon {
      case .defaultPin, .tintedPin: return true
      case .image, .frames: return false
      }
    }
  }

  /// The defaults, without a box.
  @inlinable init() { box = nil }

  /// Whether the icon is a pin, default or tinted, with no view and no insets, drawn at the
  /// default pin's size: true for the defaults, without a box.
  var isPinWithoutInsets: Bool { box?.isPinWithoutInsets ?? true }

  /// The values, read without copying the box (but copying each value: a getter of one
  /// value reads `box?.values.name` instead, which copies that one alone).
  var values: RareMarkerProperties { box?.values ?? .defaults }

  /// Changes the values in a box held by no other copy.
  mutating func write(_ change: (inout RareMarkerProperties) -> Void) {
    if box == nil {
      box = Box(.defaults)
    } else if !isKnownUniquelyReferenced(&box) {
      box = Box(box!.values)
    }
    change(&box!.values)
  }

  @usableFromInline static func == (a: RareBox, b: RareBox) -> Bool {
    a.box === b.box || a.values == b.values
  }
}
