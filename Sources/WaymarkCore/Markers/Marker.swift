/// A marker on a map, like `GMSMarker`: a class with identity, so the same marker is the
/// same object wherever it is handed out.
///
/// Create markers with `MapView.addMarker(_:)`. Read any property of ``MarkerOptions``
/// directly (`marker.title`, `marker.rotation`: ``subscript(dynamicMember:)``); change them
/// with ``update(_:)``, which validates the new values and applies all of them or none.
/// Confined to the thread of its map.
@dynamicMemberLookup
public final class Marker {
  /// The map the marker is on, or nil once removed (R2). Unchecked exclusivity, like the
  /// properties below: only the map writes it, calling out to no one meanwhile.
  @exclusivity(unchecked) public internal(set) weak var map: MapView?

  // Hot properties are stored inline; everything else (an explicit id, z-index and flags
  // among them) lives in `extras`, which markers with default values share (one instance per
  // map, with the map's number), so that a million markers with a title each stay small (a
  // 72-byte object each). Their exclusivity is unchecked: a marker never calls out while
  // one is being written (the map is told after), and the dynamic checks were a fifth of
  // adding a marker.
  /// Where the marker stands.
  @exclusivity(unchecked) package private(set) var position: Coordinate
  /// The info window's title.
  @exclusivity(unchecked) package private(set) var title: String?
  @exclusivity(unchecked) private var extras: Extras
  @usableFromInline let storedSerial: Int32
  /// The marker's slot in its map's storage and spatial index (internal).
  @exclusivity(unchecked) var slot: Int32 = -1

  struct Flags: OptionSet {
    let rawValue: UInt8
    static let draggable = Flags(rawValue: 1)
    static let flat = Flags(rawValue: 2)
    static let tappable = Flags(rawValue: 4)
    static let tracksViewChanges = Flags(rawValue: 8)
    static let tracksInfoWindowChanges = Flags(rawValue: 16)
    /// Those of ``MarkerOptions``' defaults.
    static let defaults: Flags = [.tappable, .tracksViewChanges]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(_ options: borrowing MarkerOptions) {
      var flags: Flags = []
      if options.draggable { flags.insert(.draggable) }
      if options.flat { flags.insert(.flat) }
      if options.tappable { flags.insert(.tappable) }
      if options.tracksViewChanges { flags.insert(.tracksViewChanges) }
      if options.tracksInfoWindowChanges { flags.insert(.tracksInfoWindowChanges) }
      self = flags
    }
  }

  /// A marker's properties other than its position and title, with the number of the map
  /// that created it. A map's markers whose properties are all at their defaults share one
  /// instance (``isShared``), which is never written: a marker takes its own copy on the
  /// first change away from the defaults, and keeps it.
  final class Extras {
    /// The number of the map that created the marker (its generated id counts on that map).
    let origin: UInt32
    /// Whether this is a map's instance shared by its markers at their defaults.
    let isShared: Bool
    var zIndex: Int32 = 0
    var flags = Flags.defaults
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

    /// Default values for a marker of the map numbered `origin`.
    init(origin: UInt32, isShared: Bool) {
      self.origin = origin
      self.isShared = isShared
    }

    deinit { changeCounter?.deallocate() }
  }

  /// A marker numbered `serial` whose defaults (and map number) are `defaults`, a map's
  /// shared ``Extras``; `options` must be valid.
  init(serial: Int, defaults: Extras, options: borrowing MarkerOptions) {
    storedSerial = Int32(truncatingIfNeeded: serial)
    position = options.position
    title = options.title
    extras = defaults
    storeExtras(options)
  }

  /// The number of the map that created the marker (its generated id counts on that map).
  var origin: UInt32 { extras.origin }
  /// The marker's number on the map that created it, 1, 2, 3... in order of creation.
  @inlinable package var serial: Int { Int(storedSerial) }

  /// The marker's name in traces and scripts: the explicit id, else `marker-N`.
  public var id: String { extras.id ?? "marker-\(serial)" }
  /// Whether the id was given rather than generated.
  var hasExplicitID: Bool { extras.id != nil }
  /// The info window's second line.
  package var snippet: String? { extras.snippet }
  /// The icon (R3).
  package var icon: MarkerIcon { extras.icon }
  /// A custom view that wins over the icon (R3).
  package var iconView: MarkerIconView? { extras.iconView }
  /// Where the info window's tail points, in unit coordinates of the icon.
  package var infoWindowAnchor: Point { extras.infoWindowAnchor }
  /// The point of the icon placed at the position, in unit coordinates of the icon.
  package var groundAnchor: Point { extras.groundAnchor }
  /// Degrees clockwise the icon is turned.
  package var rotation: Double { extras.rotation }
  /// 0 (invisible but tappable, R4) to 1.
  package var opacity: Double { extras.opacity }
  /// How the marker appears when added.
  package var appearAnimation: MarkerAppearAnimation { extras.appearAnimation }
  /// Anything the caller keeps with the marker.
  package var userData: AnyObject? { extras.userData }
  /// Higher draws on top and wins taps (R4).
  package var zIndex: Int32 { extras.zIndex }
  /// Whether a long press starts a drag (R18).
  package var draggable: Bool { extras.flags.contains(.draggable) }
  /// Whether the icon lies flat on the map.
  package var flat: Bool { extras.flags.contains(.flat) }
  /// Whether taps can hit the marker (R4).
  package var tappable: Bool { extras.flags.contains(.tappable) }
  /// Whether the icon view is redrawn when it changes.
  package var tracksViewChanges: Bool { extras.flags.contains(.tracksViewChanges) }
  /// Whether an open default window shows title and snippet changes at once (R7).
  package var tracksInfoWindowChanges: Bool { extras.flags.contains(.tracksInfoWindowChanges) }
  /// The size of what is drawn (R3).
  package var iconSize: Size {
    if let view = extras.iconView { return view.size }
    if case .image(_, let size) = extras.icon { return size }
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
    var options = MarkerOptions(position: position, id: extras.id, title: title, snippet: snippet)
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
    try options.validate()
    if options.id != extras.id {
      throw MapError.invalidValue(field: "marker.id", value: options.id ?? "nil", reason: "cannot change (it is \(id))")
    }
    let old = self.options
    store(options)
    map?.markerDidChange(self, from: old)
  }

  /// Moves the marker without re-validating the other properties (drags and animations).
  func move(to position: Coordinate) {
    self.position = position
    extras.changeCounter?.pointee &+= 1
    map?.markerDidMove(self)
  }

  /// The address of a counter that changes whenever any property of the marker changes
  /// (every ``update(_:)``, drag and animation frame), for caches outside the core that
  /// compare it with the value they last saw (the Lua bridge's field cache). Allocated on
  /// first use, so markers never asked cost nothing; valid as long as the marker lives.
  package var changeCounter: UnsafePointer<UInt64> {
    let extras = ownExtras()
    if let counter = extras.changeCounter { return UnsafePointer(counter) }
    let counter = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    counter.initialize(to: 0)
    extras.changeCounter = counter
    return UnsafePointer(counter)
  }

  /// The marker's own extras, copied from the shared defaults first if it had none.
  private func ownExtras() -> Extras {
    if extras.isShared { extras = Extras(origin: extras.origin, isShared: false) }
    return extras
  }

  private func store(_ options: borrowing MarkerOptions) {
    position = options.position
    title = options.title
    storeExtras(options)
  }

  /// Whether the marker's properties other than position and title are at their defaults,
  /// shared with the other such markers of its map.
  var isAtDefaults: Bool { extras.isShared }

  /// Stores every property of `options` but the position and the title.
  private func storeExtras(_ options: borrowing MarkerOptions) {
    let flags = Flags(options)
    guard case .defaultPin = options.icon else {
      storeOwnExtras(options, flags)
      return
    }
    if extras.isShared && flags == .defaults && options.zIndex == 0 && options.id == nil && options.snippet == nil
      && options.iconView == nil
      && options.groundAnchor == MarkerOptions.defaultGroundAnchor
      && options.infoWindowAnchor == MarkerOptions.defaultInfoWindowAnchor && options.rotation == 0
      && options.opacity == 1 && options.appearAnimation == .none && options.userData == nil
    {
      return
    }
    storeOwnExtras(options, flags)
  }

  private func storeOwnExtras(_ options: borrowing MarkerOptions, _ flags: Flags) {
    let extras = ownExtras()
    extras.zIndex = options.zIndex
    extras.flags = flags
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
  }
}
