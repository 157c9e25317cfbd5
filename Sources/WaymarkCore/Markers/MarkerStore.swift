/// The markers of one map: their slots, serials, ids, spatial index and icon extent, and
/// nothing else (no callbacks, no selection). A part of ``MapView`` with its own invariants
/// (``checkInvariants()``):
///
/// - a marker on the map has a slot, and its slot holds it; slots are in order of addition
///   (a marker added again takes a new slot at the end), so ``markers`` needs no sort and
///   the slot is the "most recently added" order of R4;
/// - a marker at its defaults (``Marker/isAtDefaults``) stores neither its serial nor its
///   slot: the store finds its slot in the spatial index at its position, and its serial
///   from the slot (slot + 1 while ``slotsFollowSerials``, else `serialOfSlot`); every
///   other marker keeps both in its own extras, and the store keeps its slot there current;
/// - ``count`` is the number of filled slots; empty slots are compacted away once they
///   outnumber the markers;
/// - an explicit id, or the id of a marker created by another map, resolves through
///   `byID`; a generated id (`marker-N`) through `slotOfSerial`, without a dictionary
///   entry per marker; while every marker took the slot of its serial (markers added as
///   they were created, none re-added, no compaction: ``slotsFollowSerials``), slot N - 1
///   is the one of `marker-N`, and `slotOfSerial` and `serialOfSlot` stay empty;
/// - the spatial index holds exactly the filled slots, at their markers' world points;
/// - the icon extent covers every icon the store has held (it only grows until
///   ``removeAll()``).
///
/// Hit-testing reads marker data through the store (``MarkerStore+HitTesting.swift``), so
/// that the markers' hot fields could move into columns here without touching the map.
struct MarkerStore {
  /// The ids ``marker(id:)`` finds through the index by id: explicit ids, and the ids of
  /// markers another map created. Every other id it finds starts with ``Marker/generatedIDPrefix``.
  var indexedIDs: Dictionary<String, Marker>.Keys { byID.keys }

  /// The number of the map that owns the store: markers it creates count their serials on it.
  var origin: UInt32 { defaults.origin }
  /// What the markers this map creates share while their properties are at their defaults.
  private let defaults: Marker.Extras
  /// The markers by slot, in order of addition; nil where one was removed.
  private(set) var slots: [Marker?] = []
  /// How many markers are on the map.
  private(set) var count = 0
  /// The serials of generated ids (`marker-N`), none repeating a marker's id on the map.
  private var serials = GeneratedSerials(prefix: Marker.generatedIDPrefix)
  /// The serial the next created marker gets.
  var nextSerial: Int { serials.next }
  /// Markers with an explicit id, and markers created by another map, by id.
  private var byID: [String: Marker] = [:]
  /// The slot of each marker this map created, by serial - 1 (-1 when not on the map);
  /// empty while ``slotsFollowSerials``.
  private var slotOfSerial: [Int32] = []
  /// The serial of the marker in each slot (0 where none was of this map), by slot; empty
  /// while ``slotsFollowSerials``.
  private var serialOfSlot: [Int32] = []
  /// Whether the marker of serial N, if on the map, is in slot N - 1 (until a marker takes
  /// another slot, or a serial is skipped): then `slotOfSerial` and `serialOfSlot` need no
  /// entry per marker.
  private var slotsFollowSerials = true
  /// The anchors' world points by slot.
  var index = SpatialIndex()
  /// How far icons reach from their anchors (hit-testing's search area).
  private(set) var iconExtent = IconExtent()
  /// Whether ``iconExtent`` covers the icon of a marker at its defaults (the same for all).
  private var extentCoversDefaults = false
  /// Whether a marker with a z-index other than 0 was ever in the store (until
  /// ``removeAll()``): while not, the topmost of several markers is the latest added.
  private(set) var zIndicesVary = false
  /// A reused buffer for the spatial index's candidates during a tap.
  var candidates: [(slot: Int32, x: Double, y: Double)] = []

  /// Creates an empty store for the map numbered `origin`.
  init(origin: UInt32) { defaults = Marker.Extras(origin: origin, isShared: true) }

  /// Makes `map` the map of the markers at their defaults: the store's owner.
  func belongs(to map: any MarkerOwner) { defaults.owner = map }

  /// Every marker, in the order they were added. Costs one pass over the slots (no sort).
  var markers: [Marker] { slots.compactMap { $0 } }

  /// The marker with this id, if it is in the store.
  func marker(id: String) -> Marker? {
    if let marker = byID[id] { return marker }
    guard id.hasPrefix(Marker.generatedIDPrefix), let serial = Int(id.dropFirst(Marker.generatedIDPrefix.utf8.count)),
      serial >= 1, serial < nextSerial
    else { return nil }
    let slot = slotsFollowSerials ? serial - 1 : Int(slotOfSerial[serial - 1])
    guard slot >= 0, slot < slots.count, let marker = slots[slot], marker.origin == origin else { return nil }
    if marker.isAtDefaults { return serialAt(slot) == Int32(serial) ? marker : nil }
    return marker.id == id ? marker : nil
  }

  /// The serial of the marker at its defaults in `slot`.
  private func serialAt(_ slot: Int) -> Int32 {
    slotsFollowSerials ? Int32(slot + 1) : serialOfSlot[slot]
  }

  /// The serial and slot of `marker`, which is at its defaults and on this map, standing at
  /// `position` in the spatial index (where it was added or last moved to); nil if it is not.
  mutating func place(ofShared marker: Marker, at position: Coordinate) -> (serial: Int32, slot: Int32)? {
    let world = Mercator.worldPoint(position)
    let slots = self.slots
    guard let slot = index.firstID(atX: world.x, y: world.y, where: { slots[Int($0)] === marker }) else {
      return nil
    }
    return (serialAt(Int(slot)), slot)
  }

  /// The slot of `marker`, which is on this map, standing at `position` in the index.
  private mutating func slot(of marker: Marker, at position: Coordinate) -> Int32 {
    if !marker.isAtDefaults { return marker.ownSlot }
    guard let place = place(ofShared: marker, at: position) else {
      preconditionFailure("marker at its defaults not found where it stands")
    }
    return place.slot
  }

  /// Creates a marker of this map from valid options and puts it in a new slot at the end.
  mutating func add(_ options: consuming MarkerOptions) -> Marker {
    let slot = Int32(slots.count)
    let (serial, skipped) = serials.take()
    // A new marker of this map takes the slot of its serial while the slots follow them.
    let marker = Marker(serial: serial, slot: slot, defaults: defaults, options: options)
    if !slotsFollowSerials {
      slotOfSerial.append(slot)
      serialOfSlot.append(Int32(serial))
    }
    place(marker, in: slot)
    didSkip(skipped)
    if marker.hasExplicitID { index(byID: marker) }
    return marker
  }

  /// Indexes `marker` by its id, and keeps generated ids from repeating it.
  private mutating func index(byID marker: Marker) {
    let id = marker.id
    byID[id] = marker
    didSkip(serials.note(id))
  }

  /// Keeps the tables by serial exact after `count` serials were skipped (none is a marker's):
  /// later markers no longer take the slot of their serial.
  private mutating func didSkip(_ count: Int) {
    guard count > 0 else { return }
    if slotsFollowSerials {
      stopFollowingSerials()  // sized to the serials taken and skipped so far
    } else {
      slotOfSerial.append(contentsOf: repeatElement(-1, count: count))
    }
  }

  /// Makes room for `count` more markers, `withIDs` of them with explicit ids, so that adding
  /// them in bulk grows no table step by step. Grows geometrically: calls for a few markers
  /// at a time stay amortized.
  mutating func reserveCapacity(forMore count: Int, withIDs ids: Int) {
    slots.reserveGeometrically(forMore: count)
    if !slotsFollowSerials {
      slotOfSerial.reserveGeometrically(forMore: count)
      serialOfSlot.reserveGeometrically(forMore: count)
    }
    byID.reserveCapacity(byID.count + ids)
  }

  /// Puts a marker that was removed from this or another map (with extras of its own) in a
  /// new slot at the end.
  mutating func insert(_ marker: Marker) {
    let slot = Int32(slots.count)
    stopFollowingSerials()  // the marker's serial is not its slot's
    marker.ownSlot = slot
    serialOfSlot.append(marker.origin == origin ? Int32(marker.serial) : 0)
    place(marker, in: slot)
    if marker.hasExplicitID || marker.origin != origin {
      index(byID: marker)
    } else {
      slotOfSerial[marker.serial - 1] = slot
    }
  }

  /// Fills `slot` (the next) with `marker`: the index, the icon extent.
  private mutating func place(_ marker: Marker, in slot: Int32) {
    slots.append(marker)
    count += 1
    let world = Mercator.worldPoint(marker.position)
    index.insert(slot, x: world.x, y: world.y)
    // Markers at their defaults all reach as far as the first one: only it widens the
    // extent. Any other marker widens it by its own reach (a few reads, cheaper than asking
    // whether its properties are the defaults').
    if !(marker.isAtDefaults && extentCoversDefaults) {
      include(marker)
      extentCoversDefaults = extentCoversDefaults || marker.isAtDefaults
    }
  }

  /// Takes a marker out of its slot and the index; it keeps its serial in extras of its own.
  mutating func remove(_ marker: Marker) {
    let slot = self.slot(of: marker, at: marker.position)
    if marker.isAtDefaults { marker.takeOwnExtras((serialAt(Int(slot)), slot)) }
    let world = Mercator.worldPoint(marker.position)
    index.remove(slot, x: world.x, y: world.y)
    slots[Int(slot)] = nil
    if byID[marker.id] === marker { byID[marker.id] = nil }
    if marker.origin == origin && !slotsFollowSerials { slotOfSerial[marker.serial - 1] = -1 }
    count -= 1
    marker.ownSlot = -1
    if slots.count - count > max(count, 64) { compact() }
  }

  /// Empties the store; returns the markers it held, in order of addition, each with its
  /// serial in extras of its own.
  mutating func removeAll() -> [Marker] {
    detachMarkersAtDefaults(all: true)
    let removed = markers
    for marker in removed { marker.ownSlot = -1 }
    slots.removeAll()
    count = 0
    byID.removeAll()
    for index in slotOfSerial.indices { slotOfSerial[index] = -1 }
    serialOfSlot.removeAll()
    index.removeAll()
    iconExtent = IconExtent()
    extentCoversDefaults = false
    zIndicesVary = false
    return removed
  }

  /// Gives the markers at their defaults extras of their own, with their serials: every one
  /// (they leave the map), or only those someone else holds (the map is going away).
  mutating func detachMarkersAtDefaults(all: Bool) {
    for slot in slots.indices {
      guard slots[slot]?.isAtDefaults == true else { continue }
      if !all && isKnownUniquelyReferenced(&slots[slot]) { continue }
      slots[slot]!.takeOwnExtras((serialAt(slot), Int32(slot)))
    }
  }

  /// Keeps the index exact after a marker moved from `old`.
  mutating func didMove(_ marker: Marker, from old: Coordinate) {
    let slot = self.slot(of: marker, at: old)
    let from = Mercator.worldPoint(old)
    let to = Mercator.worldPoint(marker.position)
    index.move(slot, fromX: from.x, fromY: from.y, x: to.x, y: to.y)
  }

  /// Keeps the icon extent covering a marker whose icon, anchor or rotation may have changed.
  mutating func didChangeIcon(of marker: Marker) {
    include(marker)
  }

  /// Widens what hit-testing assumes of every marker to cover `marker`.
  private mutating func include(_ marker: Marker) {
    iconExtent.include(marker)
    if marker.zIndex != 0 { zIndicesVary = true }
  }

  /// Closes the gaps removals left: every marker gets the slot of its rank (order kept), and
  /// the index is rebuilt. Amortized over the removals that made the gaps.
  private mutating func compact() {
    stopFollowingSerials()
    var kept: [Marker] = []
    var serials: [Int32] = []
    for (slot, marker) in slots.enumerated() {
      guard let marker else { continue }
      kept.append(marker)
      serials.append(serialOfSlot[slot])
    }
    slots = kept
    serialOfSlot = serials
    index.removeAll()
    for (slot, marker) in kept.enumerated() {
      if !marker.isAtDefaults { marker.ownSlot = Int32(slot) }
      if !(marker.hasExplicitID || marker.origin != origin) { slotOfSerial[Int(serials[slot]) - 1] = Int32(slot) }
      let world = Mercator.worldPoint(marker.position)
      index.insert(Int32(slot), x: world.x, y: world.y)
    }
  }

  /// Gives every marker created so far its entries in `slotOfSerial` and `serialOfSlot`,
  /// from now on kept.
  private mutating func stopFollowingSerials() {
    guard slotsFollowSerials else { return }
    slotsFollowSerials = false
    // Every filled slot N - 1 holds the marker of serial N, made here (a marker from
    // elsewhere, or added again, stops the following before it takes its slot).
    slotOfSerial = Array(repeating: -1, count: nextSerial - 1)
    serialOfSlot = Array(repeating: 0, count: slots.count)
    for (slot, marker) in slots.enumerated() where marker != nil {
      slotOfSerial[slot] = Int32(slot)
      serialOfSlot[slot] = Int32(slot + 1)
    }
  }

  /// Describes the first broken invariant, or nil when all hold (tests).
  mutating func checkInvariants() -> String? {
    var filled = 0
    for (slot, marker) in slots.enumerated() {
      guard let marker else { continue }
      filled += 1
      if marker.owner !== defaults.owner { return "marker \(marker.id) in slot \(slot) says it is on another map" }
      let found = self.slot(of: marker, at: marker.position)
      if found != slot { return "marker \(marker.id) is in slot \(slot) but is found in \(found)" }
      if marker.hasExplicitID || marker.origin != origin {
        if byID[marker.id] !== marker { return "marker \(marker.id) is not found by its id" }
      } else {
        let serial = marker.serial
        if slotsFollowSerials ? serial - 1 != slot : slotOfSerial[serial - 1] != slot {
          return "marker \(marker.id)'s serial does not point at its slot \(slot)"
        }
        if !slotsFollowSerials && serialOfSlot[slot] != serial {
          return "slot \(slot) says serial \(serialOfSlot[slot]) for marker \(marker.id)"
        }
      }
      if self.marker(id: marker.id) !== marker { return "marker(id: \(marker.id)) finds another marker" }
      let world = Mercator.worldPoint(marker.position)
      var indexed = false
      index.forEach(inMinX: world.x, minY: world.y, maxX: world.x, maxY: world.y) {
        if $0 == Int32(slot) { indexed = true }
      }
      if !indexed { return "marker \(marker.id) is not in the index at its position" }
      if marker.zIndex != 0 && !zIndicesVary { return "marker \(marker.id) has a z-index the store does not know of" }
    }
    if filled != count { return "count is \(count) but \(filled) slots are filled" }
    if index.count != count { return "the index holds \(index.count) slots for \(count) markers" }
    if !slotsFollowSerials && slotOfSerial.count != nextSerial - 1 {
      return "slotOfSerial has \(slotOfSerial.count) entries for \(nextSerial - 1) serials"
    }
    if !slotsFollowSerials && serialOfSlot.count != slots.count {
      return "serialOfSlot has \(serialOfSlot.count) entries for \(slots.count) slots"
    }
    for marker in byID.values where marker.ownSlot < 0 || slots[Int(marker.ownSlot)] !== marker {
      return "the id \(marker.id) names a marker that is not in the store"
    }
    return nil
  }
}
