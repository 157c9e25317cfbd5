/// What a marker's icon shows (R3): the default pin, a tinted pin, or a named image.
public enum MarkerIcon: Hashable, Sendable {
  /// Google's red pin.
  case defaultPin
  /// The default pin tinted with a colour (`marker_image(color)`): still an icon (R3).
  case tintedPin(color: String)
  /// A named image of a given size in points.
  case image(name: String, size: Size)
  /// An image of several frames shown in turn, each for `duration` / frames seconds of
  /// virtual time, cycling (R48; see `frame(at:)`).
  case frames([MarkerIconFrame], duration: Double)
}

/// A custom view standing in for the icon (R3: it wins over the icon), described by its name
/// and size: Waymark draws nothing, but hit-tests and anchors the view's rectangle.
public struct MarkerIconView: Hashable, Sendable {
  /// A name for the view, for traces and renderers.
  public var name: String
  /// The view's size in points.
  public var size: Size
  /// The view's tint (`#RRGGBB`, `#RRGGBBAA` or a colour name), nil for the placeholder's.
  public var color: String?
  /// Creates an icon view.
  public init(name: String, size: Size, color: String? = nil) {
    self.name = name
    self.size = size
    self.color = color
  }
}

/// How a marker appears when added to a map (R1).
public enum MarkerAppearAnimation: String, Hashable, Sendable, CaseIterable {
  /// No animation.
  case none
  /// The marker grows from its anchor.
  case pop
  /// The marker fades in.
  case fadeIn = "fade_in"
}

/// Every property of a marker (R1), with Google's defaults. Used to create a marker and to
/// change one atomically (``Marker/update(_:)``).
public struct MarkerOptions {
  /// The default pin's size in points (used for the default and tinted pins).
  package static let defaultPinSize = Size(width: 27, height: 43)
  /// The default ground anchor: the bottom centre of the icon (R1).
  @inlinable package static var defaultGroundAnchor: Point { Point(x: 0.5, y: 1) }
  /// The default info-window anchor: the top centre of the icon (R1).
  @inlinable package static var defaultInfoWindowAnchor: Point { Point(x: 0.5, y: 0) }

  /// A stable name used in traces and by scripts; nil gives `marker-N` in order of creation.
  public var id: Optional<String>
  /// Where the marker stands (required).
  public var position: Coordinate
  /// The info window's title; nil by default.
  public var title: Optional<String>
  /// The info window's second line; nil by default.
  public var snippet: Optional<String>
  /// The icon; the default pin by default.
  public var icon: MarkerIcon {
    get { rare?.icon ?? .defaultPin }
    set { writableRare().icon = newValue }
  }
  /// The icon's alignment rect insets (R37): margins of the icon (a shadow, a glow) that are
  /// drawn but neither tapped nor anchored; the anchors are unit coordinates of the rectangle
  /// inside them. None by default; an icon view has none.
  public var iconInsets: EdgeInsets {
    get { rare?.iconInsets ?? .zero }
    set { writableRare().iconInsets = newValue }
  }
  /// A custom view that wins over the icon (R3); nil by default.
  public var iconView: MarkerIconView? {
    get { rare?.iconView }
    set { writableRare().iconView = newValue }
  }
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
  /// Anything the caller wants to keep with the marker; nil by default.
  public var userData: AnyObject? {
    get { rare?.userData }
    set { writableRare().userData = newValue }
  }
  /// Whether the icon view is redrawn when it changes; true by default.
  public var tracksViewChanges = true
  /// Whether an open default window shows a change of title or snippet at once (a window
  /// that becomes blank closes, the marker staying selected); false by default: the window
  /// keeps what it was shown with until it is hidden and shown again (R7).
  public var tracksInfoWindowChanges = false

  /// The icon, the icon view and the user data, which most markers leave at their defaults
  /// (nil then): one reference to copy and release instead of five, so that copying the
  /// options of a marker added in bulk costs little. Copies share it until one changes it.
  @usableFromInline var rare: Optional<RareOptions>

  /// The options behind ``rare``, held by no other copy.
  private mutating func writableRare() -> RareOptions {
    if rare == nil {
      rare = RareOptions()
    } else if !isKnownUniquelyReferenced(&rare) {
      rare = rare!.copy()
    }
    return rare!
  }

  /// Options for a marker at `position`, every other property at its default (R1).
  /// Inlinable, so that a caller adding markers in bulk builds them in place.
  ///
  /// The optional stored properties are spelled `Optional<...>`: a `T?` property has an
  /// implicit nil value the initializer then overwrites, and the compiler builds such a
  /// value in a temporary it copies out and destroys (about 300 instructions a marker).
  @inlinable
  public init(position: Coordinate, id: String? = nil, title: String? = nil, snippet: String? = nil) {
    self.position = position
    self.id = id
    self.title = title
    self.snippet = snippet
    rare = nil
  }

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

  /// Whether every property but the position and the title is at its default, as for most
  /// markers added in bulk: then only those two can be out of their domains.
  private var hasOnlyPositionAndTitle: Bool {
    rareAreDefaults && id == nil && snippet == nil && opacity == 1 && rotation == 0
      && groundAnchor == MarkerOptions.defaultGroundAnchor && infoWindowAnchor == MarkerOptions.defaultInfoWindowAnchor
  }

  /// Whether the icon, the icon view and the user data are at their defaults (the default
  /// pin, none, none), read without copying them: at once when no box holds them.
  package var rareAreDefaults: Bool {
    guard let rare else { return true }
    guard case .defaultPin = rare.icon else { return false }
    return rare.iconView == nil && rare.userData == nil && rare.iconInsets == .zero
  }

  /// Throws an error naming the first field whose value is out of its domain, if any.
  package func validate() throws(MapError) {
    // Options of a marker added in bulk pass at once; anything else is checked field by
    // field, which names the first field out of its domain.
    let latitude = position.latitude
    if latitude >= -90 && latitude <= 90 && position.longitude.isFinite && hasOnlyPositionAndTitle
      && (title?.utf8.count ?? 0) <= TextLimits.text
    {
      return
    }
    try validateEachField()
  }

  /// ``validate()`` field by field.
  private func validateEachField() throws(MapError) {
    _ = try position.validated("marker.position")
    try MapError.require(opacity, in: 0...1, "marker.opacity")
    try MapError.requireFinite(rotation, "marker.rotation")
    // Anchors are unit coordinates of the icon, each within 0...1 (R1).
    try MapError.require(groundAnchor.x, in: 0...1, "marker.groundAnchor.x")
    try MapError.require(groundAnchor.y, in: 0...1, "marker.groundAnchor.y")
    try MapError.require(infoWindowAnchor.x, in: 0...1, "marker.infoWindowAnchor.x")
    try MapError.require(infoWindowAnchor.y, in: 0...1, "marker.infoWindowAnchor.y")
    if case .image(_, let size) = icon { try MarkerOptions.validateIconSize(size, "marker.icon") }
    if case .frames(let frames, let duration) = icon {
      try MarkerIcon.validateFrames(frames, duration: duration) { size, field throws(MapError) in
        try MarkerOptions.validateIconSize(size, field)
      }
    }
    if let iconView { try MarkerOptions.validateIconSize(iconView.size, "marker.iconView") }
    if iconView == nil { try MarkerOptions.validateInsets(iconInsets, of: iconSize) }
    if let id, id.isEmpty { throw .invalidValue(field: "marker.id", value: "\"\"", reason: "is empty") }
    try TextLimits.check(id, atMost: TextLimits.name, "marker.id")
    try TextLimits.check(title, atMost: TextLimits.text, "marker.title")
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

/// The options of ``MarkerOptions`` that most markers leave at their defaults, boxed.
@usableFromInline final class RareOptions {
  var icon: MarkerIcon = .defaultPin
  var iconView: MarkerIconView?
  var iconInsets = EdgeInsets.zero
  var userData: AnyObject?

  @usableFromInline init() {}

  /// A box of its own with the same values.
  func copy() -> RareOptions {
    let other = RareOptions()
    other.icon = icon
    other.iconView = iconView
    other.iconInsets = iconInsets
    other.userData = userData
    return other
  }
}
