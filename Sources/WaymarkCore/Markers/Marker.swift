/// A marker on a map, like `GMSMarker`: a class with identity, so the same marker is the
/// same object wherever it is handed out.
///
/// Create markers with `MapView.addMarker(_:)`. Read its position, title and any of its
/// ``MarkerProperties`` directly (`marker.title`, `marker.rotation`:
/// ``subscript(dynamicMember:)``); change them with ``update(_:)``, which validates the new
/// values and applies all of them or none.
/// Confined to the thread of its map.
@dynamicMemberLookup
public final class Marker {
  // Only the position, the title and `extras` are stored inline; everything else (the map,
  // the serial and slot, the ``MarkerProperties``) lives in `extras`,
  // which the markers of a map at their default values share (one instance per map, with
  // the map and its number), so that a million markers with a title each stay small: a
  // 56-byte object each, which the allocator keeps in 64 bytes. Their exclusivity is
  // unchecked: a marker never calls out while one is being written (the map is told after),
  // and the dynamic checks of these four would add 39% to adding a marker (add_markers_1m:
  // 1,448 instructions an addMarker against 1,041), 21% to a Lua handler call (lua_dispatch:
  // 1,541 against 1,270, 1.70x the C floor) and 11% to a tap (callgrind).
  /// Where the marker stands.
  @exclusivity(unchecked) public private(set) var position: Coordinate
  /// The info window's title.
  @exclusivity(unchecked) public private(set) var title: String?
  @usableFromInline @exclusivity(unchecked) var extras: Extras

  /// A marker's properties other than its position and title, with the map it is on, its
  /// serial and its slot. The markers a map created, while they are on it with every
  /// property at its default, share one instance (``isShared``), which holds that map and
  /// is never written otherwise; their serials and slots are the map's to tell
  /// (``MarkerStore/slot(of:)``). A marker takes its own copy on the first change away from
  /// the defaults, or when it leaves the map, and keeps it.
  @usableFromInline final class Extras {
    /// The number of the map that created the marker (its generated id counts on that map).
    let origin: UInt32
    /// Whether this is a map's instance shared by its markers at their defaults.
    @usableFromInline let isShared: Bool
    /// The map the marker is on (for the shared instance: the map that created it).
    weak var owner: (any MarkerOwner)?
    /// Own instances only: the marker's number on the map that created it. Unchecked
    /// exclusivity: written only when the marker takes its extras, read by every event's
    /// dispatch (``DelegateEvent/soleMarkerKey``), never borrowed across a call (measured with
    /// the marker's three above).
    @exclusivity(unchecked) @usableFromInline var serial: Int32 = 0
    /// Own instances only: the marker's slot in its map's store, -1 when on no map.
    var slot: Int32 = -1
    /// The marker's properties (R1); the shared instance's are the defaults, never written.
    /// Unchecked exclusivity: only ever assigned whole (``Marker/update(_:)`` changes a copy),
    /// so no access overlaps another; read by every icon and hit-test question.
    @exclusivity(unchecked) @usableFromInline var properties = MarkerProperties()
    /// Own instances only: see ``Marker/version``.
    var version: UInt64 = 0

    /// Default values for a marker of the map numbered `origin`.
    init(origin: UInt32, isShared: Bool) {
      self.origin = origin
      self.isShared = isShared
    }
  }

  /// A marker whose defaults (map and map number) are `defaults`, a map's shared
  /// ``Extras``, about to take `slot` in that map's store; `options` must be valid. Its
  /// serial is `serial`: the store tells it while the marker shares the defaults, so it is
  /// stored only when the marker takes extras of its own.
  init(serial: Int, slot: Int32, defaults: Extras, options: consuming MarkerOptions) {
    position = options.position
    title = options.title.take()  // moved, not copied: copying a String? costs ~135 instructions
    extras = defaults
    guard !options.properties.isDefault else { return }
    takeOwnExtras((Int32(truncatingIfNeeded: serial), slot))
    // Swapped in, not copied: a copy retains and releases each of the properties' values.
    swap(&extras.properties, &options.properties)
    extras.version &+= 1
  }

  /// The number of the map that created the marker (its generated id counts on that map).
  var origin: UInt32 { extras.origin }
  /// The marker's number on the map that created it, 1, 2, 3... in order of creation,
  /// skipping a number N whose generated id (`marker-N`) a marker on that map already has.
  @inlinable package var serial: Int { extras.isShared ? sharedSerial : Int(extras.serial) }

  /// The serial of a marker that shares its map's defaults: its map's store tells it.
  @usableFromInline var sharedSerial: Int { Int(sharedPlace.serial) }

  /// The map the marker is on, or nil once removed (R2), as the marker sees it. Only the map
  /// sets it (through `MapView`'s `map`, declared with the map), after its store gave the
  /// marker extras of its own if it leaves its map or changes maps.
  var owner: (any MarkerOwner)? {
    get { extras.owner }
    set {
      if newValue === extras.owner { return }
      ownExtras().owner = newValue
    }
  }

  /// Whether the marker is on `map` (its owner `=== map`), told without loading the weak
  /// reference for a marker that shares `map`'s defaults: a map's shared instance holds the
  /// map's number, unique in the process, and only markers on that map share it (a marker
  /// leaving the map takes extras of its own first). Loading the weak reference and
  /// releasing the map cost about 140 instructions, three times a tap.
  func isOn(_ map: some MarkerOwner) -> Bool {
    let extras = self.extras
    if extras.isShared && extras.origin == map.mapNumber { return true }
    return extras.owner === map
  }

  /// Own extras only: the slot in the map's store.
  var ownSlot: Int32 {
    get { extras.slot }
    set { extras.slot = newValue }
  }

  /// The serial and slot of a marker that shares its map's defaults, from the map's store.
  private var sharedPlace: (serial: Int32, slot: Int32) {
    guard let map = extras.owner, let place = map.place(ofShared: self, at: position) else {
      preconditionFailure("a marker sharing its map's defaults is on that map")
    }
    return place
  }

  /// The marker's name in traces and scripts: the explicit id, else `marker-N`.
  public var id: String { extras.properties.id ?? "\(Self.generatedIDPrefix)\(serial)" }
  /// What a generated id (`marker-N`, N the serial) starts with.
  package static let generatedIDPrefix = "marker-"
  /// Whether the id was given rather than generated.
  var hasExplicitID: Bool { extras.properties.id != nil }
  /// The icon's alignment rect insets (R37); none for an icon view.
  package var iconInsets: EdgeInsets {
    // Read in place: a copy of the properties would retain (and release) each of them.
    extras.properties.iconView == nil ? extras.properties.iconInsets : .zero
  }
  /// The size of the rectangle inside the insets, which taps hit and anchors are unit
  /// coordinates of (R37): the icon's size when it has no insets.
  package var alignmentSize: Size {
    let size = iconSize, insets = iconInsets
    return Size(width: size.width - insets.left - insets.right, height: size.height - insets.top - insets.bottom)
  }
  /// The size of what is drawn (R3).
  package var iconSize: Size {
    if let view = extras.properties.iconView { return view.size }
    switch extras.properties.icon {
    case .image(_, let size): return size
    case .frames: if let frame = iconFrame { return frame.size }
    case .defaultPin, .tintedPin: break
    }
    return MarkerOptions.defaultPinSize
  }

  /// Any of the marker's ``MarkerProperties`` by its name: `marker.snippet`,
  /// `marker.opacity`, `marker.groundAnchor` (R1). (``id`` is the marker's name, generated
  /// when the options gave none.)
  @inlinable public subscript<Value>(dynamicMember property: KeyPath<MarkerProperties, Value>) -> Value {
    extras.properties[keyPath: property]
  }

  /// Every property as options (the id as set, nil if it was generated).
  public var options: MarkerOptions {
    MarkerOptions(position: position, title: title, properties: extras.properties)
  }

  /// Changes properties atomically: `change` edits a copy of the options; if the result is
  /// valid, all of it is applied (and the map told: spatial index, shown window), else
  /// nothing is and the error names the field. The id cannot change once the marker exists.
  public func update(_ change: (inout MarkerOptions) throws -> Void) throws {
    var options = self.options
    try change(&options)
    try options.validate()
    if options.id != extras.properties.id {
      throw MapError.invalidValue(field: "marker.id", value: options.id ?? "nil", reason: "cannot change (it is \(id))")
    }
    let old = self.options
    store(options)
    owner?.markerDidChange(self, from: old)
  }

  /// Moves the marker without re-validating the other properties (drags and animations).
  func move(to position: Coordinate) {
    let old = self.position
    self.position = position
    if !extras.isShared { extras.version &+= 1 }
    owner?.markerDidMove(self, from: old)
  }

  /// A number that changes whenever any property of the marker changes (every
  /// ``update(_:)``, drag and animation frame), for caches outside the core that compare it
  /// with the value they last saw (the Lua bridge's field cache). A marker at its map's
  /// defaults takes extras of its own when first asked, where it is counted from then on.
  package var version: UInt64 { ownExtras().version }

  /// Gives a marker at its map's defaults extras of its own, which store its serial and
  /// slot, for a marker its map is about to ask for them often: an animated or dragged one
  /// moves every frame, and each move of a marker sharing the defaults looks its slot up in
  /// the spatial index.
  func keepOwnPlace() { _ = ownExtras() }

  /// The marker's own extras, copied from the shared defaults first if it had none (with
  /// its serial and slot, which its map tells).
  private func ownExtras() -> Extras {
    if extras.isShared { takeOwnExtras(sharedPlace) }
    return extras
  }

  /// Gives a marker that shares its map's defaults extras of its own, at defaults, with its
  /// map, `place`'s serial and slot.
  func takeOwnExtras(_ place: (serial: Int32, slot: Int32)) {
    let own = Extras(origin: extras.origin, isShared: false)
    own.owner = extras.owner
    own.serial = place.serial
    own.slot = place.slot
    extras = own
  }

  private func store(_ options: borrowing MarkerOptions) {
    // Asked before the position changes: the store finds a marker by where it stands.
    let place: (serial: Int32, slot: Int32) = extras.isShared ? sharedPlace : (extras.serial, extras.slot)
    position = options.position
    title = options.title
    storeExtras(options, serial: place.serial, slot: place.slot)
  }

  /// Whether the marker's properties other than position and title are at their defaults,
  /// shared with the other such markers of its map: then its serial and slot are the map's
  /// to tell.
  var isAtDefaults: Bool { extras.isShared }

  /// Stores every property of `options` but the position and the title; a marker that
  /// shares the defaults and leaves them takes extras of its own with `serial` and `slot`.
  private func storeExtras(_ options: borrowing MarkerOptions, serial: Int32, slot: Int32) {
    if extras.isShared && options.properties.isDefault { return }
    if extras.isShared { takeOwnExtras((serial, slot)) }
    let extras = self.extras
    extras.properties = options.properties
    extras.version &+= 1
  }
}

/// The map a marker is on, as markers see it: the map's number, its store's places, and the two
/// changes a marker tells it. Only `MapView` conforms; the map is declared above the markers
/// (docs/architecture.md, "Modules"), so a marker names it only through this.
protocol MarkerOwner: AnyObject {
  /// The map's number, unique in the process.
  var mapNumber: UInt32 { get }
  /// The serial and slot of `marker`, which shares the map's defaults, standing at `position`
  /// (``MarkerStore/place(ofShared:at:)``).
  func place(ofShared marker: Marker, at position: Coordinate) -> (serial: Int32, slot: Int32)?
  /// A marker of the map changed from `old` (an update of its options).
  func markerDidChange(_ marker: Marker, from old: MarkerOptions)
  /// A marker of the map moved from `old` (a drag or an animation).
  func markerDidMove(_ marker: Marker, from old: Coordinate)
}
