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

/// Every property of a marker (R1), with Google's defaults: its position and title, and
/// ``properties``, read and written as the options' own (`options.snippet = "Open"`). Used to
/// create a marker and to change one atomically (``Marker/update(_:)``).
@dynamicMemberLookup
public struct MarkerOptions {
  /// The default pin's size in points (used for the default and tinted pins).
  package static let defaultPinSize = Size(width: 27, height: 43)
  /// The default ground anchor: the bottom centre of the icon (R1).
  @inlinable package static var defaultGroundAnchor: Point { Point(x: 0.5, y: 1) }
  /// The default info-window anchor: the top centre of the icon (R1).
  @inlinable package static var defaultInfoWindowAnchor: Point { Point(x: 0.5, y: 0) }

  /// Where the marker stands (required).
  public var position: Coordinate
  /// The info window's title; nil by default.
  public var title: Optional<String>
  /// Every other property, each declared once in ``MarkerProperties``.
  public var properties: MarkerProperties

  /// A property of ``properties`` by its name: `options.zIndex`, `options.icon = ...`.
  @inlinable public subscript<Value>(dynamicMember property: WritableKeyPath<MarkerProperties, Value>) -> Value {
    get { properties[keyPath: property] }
    set { properties[keyPath: property] = newValue }
  }

  /// Options for a marker at `position`, every other property at its default (R1).
  /// Inlinable, so that a caller adding markers in bulk builds them in place.
  @inlinable
  public init(position: Coordinate, id: String? = nil, title: String? = nil, snippet: String? = nil) {
    self.position = position
    self.title = title
    properties = MarkerProperties(id: id, snippet: snippet)
  }

  /// Options of a marker: its position, title and other properties.
  init(position: Coordinate, title: String?, properties: MarkerProperties) {
    self.position = position
    self.title = title
    self.properties = properties
  }

  /// The size of what is drawn: the icon view, else the icon, else the default pin (R3).
  package var iconSize: Size { properties.iconSize }

  /// Throws an error naming the first field whose value is out of its domain, if any.
  package func validate() throws(MapError) {
    // Options of a marker added in bulk pass at once; anything else is checked field by
    // field, which names the first field out of its domain.
    if properties.isDefault ? positionAndTitleAreValid : (properties.isDefaultButTexts && textsAreValid) { return }
    try validateEachField()
  }

  /// ``validate()`` of options made from data: every property but the texts (id, title,
  /// snippet) and the user data at its default, as the caller that built them knows (and
  /// debug builds check), so only the position and the texts are looked at.
  package func validateMadeFromData() throws(MapError) {
    assert(properties.isDefaultButTexts, "validateMadeFromData: options with other properties set")
    if textsAreValid { return }
    try validateEachField()
  }

  /// Whether the position and the title are within their domains.
  private var positionAndTitleAreValid: Bool {
    position.latitude >= -90 && position.latitude <= 90 && position.longitude.isFinite
      && (title?.utf8.count ?? 0) <= TextLimits.text
  }

  /// Whether the position and every text are within their domains.
  private var textsAreValid: Bool {
    let id = properties.id, snippet = properties.snippet
    return positionAndTitleAreValid && id?.isEmpty != true && (id?.utf8.count ?? 0) <= TextLimits.name
      && (snippet?.utf8.count ?? 0) <= TextLimits.text
  }

  /// ``validate()`` field by field.
  private func validateEachField() throws(MapError) {
    _ = try position.validated("marker.position")
    try properties.validate()
    try TextLimits.check(title, atMost: TextLimits.text, "marker.title")
  }
}
