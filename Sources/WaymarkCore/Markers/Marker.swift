/// A marker on a map, like `GMSMarker`: a class with identity, so the same marker is the
/// same object wherever it is handed out.
///
/// Create markers with `MapView.addMarker(_:)`. Read any property of ``MarkerOptions``
/// directly (`marker.title`, `marker.rotation`: ``subscript(dynamicMember:)``); change them
/// with ``update(_:)``, which validates the new values and applies all of them or none.
/// Confined to the thread of its map.
@dynamicMemberLookup
public final class Marker {
  /// The map the marker is on, or nil once removed (R2).
  public internal(set) weak var map: MapView?

  // Hot properties are stored inline, packed; rarely set ones (an explicit id among them:
  // bulk markers take generated ids) live in `extras`, allocated on first use, so that a
  // million markers with a title each stay small (an 88-byte object each). Their
  // exclusivity is unchecked: a marker never calls out while one is being written (the map
  // is told after), and the dynamic checks were a fifth of adding a marker.
  /// Where the marker stands.
  @exclusivity(unchecked) package private(set) var position: Coordinate
  /// The info window's title.
  @exclusivity(unchecked) package private(set) var title: String?
  @usableFromInline let storedSerial: Int32
  /// The number of the map that created the marker (its generated id counts on that map).
  let origin: UInt32
  /// Higher draws on top and wins taps (R4).
  @exclusivity(unchecked) package private(set) var zIndex: Int32
  /// The marker's slot in its map's storage and spatial index (internal).
  @exclusivity(unchecked) var slot: Int32 = -1
  @exclusivity(unchecked) private var flags: Flags
  @exclusivity(unchecked) private var extras: Extras?

  private struct Flags: OptionSet {
    let rawValue: UInt8
    static let draggable = Flags(rawValue: 1)
    static let flat = Flags(rawValue: 2)
    static let tappable = Flags(rawValue: 4)
    static let tracksViewChanges = Flags(rawValue: 8)
    static let tracksInfoWindowChanges = Flags(rawValue: 16)
  }

  private final class Extras {
    /// The explicit id; nil when generated (`marker-N`).
    var id: String?
    var snippet: String?
    var icon = MarkerIcon.defaultPin
    var iconView: MarkerIconView?
    var groundAnchor = MarkerOptions.defaultGroundAnchor
    var infoWindowAnchor = MarkerOptions.defaultInfoWindowAnchor
    var rotation = 0.0
    var opacity = 1.0
    var appearAnimation = MarkerAppearAnimation.none
    var userData: AnyObject?
    /// See ``Marker/changeCounter``; nil until asked for.
    var changeCounter: UnsafeMutablePointer<UInt64>?

    deinit { changeCounter?.deallocate() }
  }

  init(serial: Int, origin: UInt32, options: MarkerOptions) {
    storedSerial = Int32(truncatingIfNeeded: serial)
    self.origin = origin
    position = options.position
    title = options.title
    zIndex = options.zIndex
    flags = []
    store(options)
  }

  /// The marker's number on the map that created it, 1, 2, 3... in order of creation.
  @inlinable package var serial: Int { Int(storedSerial) }

  /// The marker's name in traces and scripts: the explicit id, else `marker-N`.
  public var id: String { extras?.id ?? "marker-\(serial)" }
  /// Whether the id was given rather than generated.
  var hasExplicitID: Bool { extras?.id != nil }
  /// The info window's second line.
  package var snippet: String? { extras?.snippet }
  /// The icon (R3).
  package var icon: MarkerIcon { extras?.icon ?? .defaultPin }
  /// A custom view that wins over the icon (R3).
  package var iconView: MarkerIconView? { extras?.iconView }
  /// Where the info window's tail points, in unit coordinates of the icon.
  package var infoWindowAnchor: Point { extras?.infoWindowAnchor ?? MarkerOptions.defaultInfoWindowAnchor }
  /// The point of the icon placed at the position, in unit coordinates of the icon.
  package var groundAnchor: Point { extras?.groundAnchor ?? MarkerOptions.defaultGroundAnchor }
  /// Degrees clockwise the icon is turned.
  package var rotation: Double { extras?.rotation ?? 0 }
  /// 0 (invisible but tappable, R4) to 1.
  package var opacity: Double { extras?.opacity ?? 1 }
  /// How the marker appears when added.
  package var appearAnimation: MarkerAppearAnimation { extras?.appearAnimation ?? .none }
  /// Anything the caller keeps with the marker.
  package var userData: AnyObject? { extras?.userData }
  /// Whether a long press starts a drag (R18).
  package var draggable: Bool { flags.contains(.draggable) }
  /// Whether the icon lies flat on the map.
  package var flat: Bool { flags.contains(.flat) }
  /// Whether taps can hit the marker (R4).
  package var tappable: Bool { flags.contains(.tappable) }
  /// Whether the icon view is redrawn when it changes.
  package var tracksViewChanges: Bool { flags.contains(.tracksViewChanges) }
  /// Whether an open default window shows title and snippet changes at once (R7).
  package var tracksInfoWindowChanges: Bool { flags.contains(.tracksInfoWindowChanges) }
  /// The size of what is drawn (R3).
  package var iconSize: Size {
    if let view = extras?.iconView { return view.size }
    if case .image(_, let size)? = extras?.icon { return size }
    return MarkerOptions.defaultPinSize
  }

  /// Any property of the marker by its name in ``MarkerOptions``: `marker.title`,
  /// `marker.opacity`, `marker.groundAnchor` (R1). (``id`` is the marker's name, generated
  /// when the options gave none.)
  public subscript<Value>(dynamicMember property: KeyPath<MarkerOptions, Value>) -> Value {
    options[keyPath: property]
  }

  /// Every property as options (the id as set, nil if it was generated).
  public var options: MarkerOptions {
    var options = MarkerOptions(position: position, id: extras?.id, title: title, snippet: snippet)
    options.icon = icon
    options.iconView = iconView
    options.groundAnchor = groundAnchor
    options.infoWindowAnchor = infoWindowAnchor
    options.appearAnimation = appearAnimation
    options.draggable = draggable
    options.flat = flat
    options.rotation = rotation
    options.opacity = opacity
    options.zIndex = zIndex
    options.tappable = tappable
    options.userData = userData
    options.tracksViewChanges = tracksViewChanges
    options.tracksInfoWindowChanges = tracksInfoWindowChanges
    return options
  }

  /// Changes properties atomically: `change` edits a copy of the options; if the result is
  /// valid, all of it is applied (and the map told: spatial index, shown window), else
  /// nothing is and the error names the field. The id cannot change once the marker exists.
  public func update(_ change: (inout MarkerOptions) throws -> Void) throws {
    var options = self.options
    try change(&options)
    let new = try options.validated()
    if new.id != extras?.id {
      throw MapError.invalidValue(field: "marker.id", value: new.id ?? "nil", reason: "cannot change (it is \(id))")
    }
    let old = self.options
    store(new)
    map?.markerDidChange(self, from: old)
  }

  /// Moves the marker without re-validating the other properties (drags and animations).
  func move(to position: Coordinate) {
    self.position = position
    extras?.changeCounter?.pointee &+= 1
    map?.markerDidMove(self)
  }

  /// The address of a counter that changes whenever any property of the marker changes
  /// (every ``update(_:)``, drag and animation frame), for caches outside the core that
  /// compare it with the value they last saw (the Lua bridge's field cache). Allocated on
  /// first use, so markers never asked cost nothing; valid as long as the marker lives.
  package var changeCounter: UnsafePointer<UInt64> {
    let extras = self.extras ?? Extras()
    self.extras = extras
    if let counter = extras.changeCounter { return UnsafePointer(counter) }
    let counter = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    counter.initialize(to: 0)
    extras.changeCounter = counter
    return UnsafePointer(counter)
  }

  private func store(_ options: MarkerOptions) {
    position = options.position
    title = options.title
    zIndex = options.zIndex
    var flags: Flags = []
    if options.draggable { flags.insert(.draggable) }
    if options.flat { flags.insert(.flat) }
    if options.tappable { flags.insert(.tappable) }
    if options.tracksViewChanges { flags.insert(.tracksViewChanges) }
    if options.tracksInfoWindowChanges { flags.insert(.tracksInfoWindowChanges) }
    self.flags = flags
    let needsExtras =
      options.id != nil || options.snippet != nil || options.icon != .defaultPin || options.iconView != nil
      || options.groundAnchor != MarkerOptions.defaultGroundAnchor
      || options.infoWindowAnchor != MarkerOptions.defaultInfoWindowAnchor || options.rotation != 0
      || options.opacity != 1 || options.appearAnimation != .none || options.userData != nil
      || extras?.changeCounter != nil
    if needsExtras {
      let extras = self.extras ?? Extras()
      extras.id = options.id
      extras.snippet = options.snippet
      extras.icon = options.icon
      extras.iconView = options.iconView
      extras.groundAnchor = options.groundAnchor
      extras.infoWindowAnchor = options.infoWindowAnchor
      extras.rotation = options.rotation
      extras.opacity = options.opacity
      extras.appearAnimation = options.appearAnimation
      extras.userData = options.userData
      extras.changeCounter?.pointee &+= 1
      self.extras = extras
    } else {
      extras = nil
    }
  }
}
