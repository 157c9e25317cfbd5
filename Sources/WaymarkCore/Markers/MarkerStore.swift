/// The markers of one map: their slots, ids, spatial index and icon extent, and nothing
/// else (no callbacks, no selection). A part of ``MapView`` with its own invariants
/// (``checkInvariants()``):
///
/// - a marker on the map has a slot, and its slot holds it; slots are in order of addition
///   (a marker added again takes a new slot at the end), so ``markers`` needs no sort and
///   the slot is the "most recently added" order of R4;
/// - ``count`` is the number of filled slots; empty slots are compacted away once they
///   outnumber the markers;
/// - an explicit id, or the id of a marker created by another map, resolves through
///   `byID`; a generated id (`marker-N`) through `slotOfSerial`, without a dictionary
///   entry per marker; while every marker took the slot of its serial (markers added as
///   they were created, none re-added, no compaction: ``slotsFollowSerials``), slot N - 1
///   is the one of `marker-N`, and `slotOfSerial` stays empty;
/// - the spatial index holds exactly the filled slots, at their markers' world points;
/// - the icon extent covers every icon the store has held (it only grows until
///   ``removeAll()``).
///
/// Hit-testing reads marker data through the store (``MarkerStore+HitTesting.swift``), so
/// that the markers' hot fields could move into columns here without touching the map.
struct MarkerStore {
  /// The number of the map that owns the store: markers it creates count their serials on it.
  var origin: UInt32 { defaults.origin }
  /// What the markers this map creates share while their properties are at their defaults.
  private let defaults: Marker.Extras
  /// The markers by slot, in order of addition; nil where one was removed.
  private(set) var slots: [Marker?] = []
  /// How many markers are on the map.
  private(set) var count = 0
  /// The serial the next created marker gets.
  private var nextSerial = 1
  /// Markers with an explicit id, and markers created by another map, by id.
  private var byID: [String: Marker] = [:]
  /// The slot of each marker this map created, by serial - 1 (-1 when not on the map);
  /// empty while ``slotsFollowSerials``.
  private var slotOfSerial: [Int32] = []
  /// Whether the marker of serial N, if on the map, is in slot N - 1 (until a marker takes
  /// another slot): then `slotOfSerial` needs no entry per marker.
  private var slotsFollowSerials = true
  /// The anchors' world points by slot.
  private(set) var index = SpatialIndex()
  /// How far icons reach from their anchors (hit-testing's search area).
  private(set) var iconExtent = IconExtent()
  /// Whether ``iconExtent`` covers the icon of a marker at its defaults (the same for all).
  private var extentCoversDefaults = false
  /// A reused buffer for the spatial index's candidates during a tap.
  var candidates: [Int32] = []

  /// Creates an empty store for the map numbered `origin`.
  init(origin: UInt32) { defaults = Marker.Extras(origin: origin, isShared: true) }

  /// Every marker, in the order they were added. Costs one pass over the slots (no sort).
  var markers: [Marker] { slots.compactMap { $0 } }

  /// The marker with this id, if it is in the store.
  func marker(id: String) -> Marker? {
    if let marker = byID[id] { return marker }
    guard id.hasPrefix("marker-"), let serial = Int(id.dropFirst(7)), serial >= 1, serial < nextSerial
    else { return nil }
    let slot = slotsFollowSerials ? serial - 1 : Int(slotOfSerial[serial - 1])
    guard slot >= 0, slot < slots.count, let marker = slots[slot], marker.origin == origin, marker.id == id else {
      return nil
    }
    return marker
  }

  /// Makes a marker of this map from valid options (not inserted yet).
  mutating func makeMarker(_ options: borrowing MarkerOptions) -> Marker {
    let marker = Marker(serial: nextSerial, defaults: defaults, options: options)
    nextSerial += 1
    if !slotsFollowSerials { slotOfSerial.append(-1) }
    return marker
  }

  /// Puts a marker in a new slot at the end.
  mutating func insert(_ marker: Marker) {
    let slot = Int32(slots.count)
    if slotsFollowSerials && (marker.origin != origin || marker.serial != slots.count + 1) { stopFollowingSerials() }
    slots.append(marker)
    marker.slot = slot
    count += 1
    if marker.hasExplicitID || marker.origin != origin {
      byID[marker.id] = marker
    } else if !slotsFollowSerials {
      slotOfSerial[marker.serial - 1] = slot
    }
    let world = Mercator.worldPoint(marker.position)
    index.insert(slot, x: world.x, y: world.y)
    if !(marker.isAtDefaults && extentCoversDefaults) {
      iconExtent.include(marker)
      extentCoversDefaults = extentCoversDefaults || marker.isAtDefaults
    }
  }

  /// Takes a marker out of its slot and the index.
  mutating func remove(_ marker: Marker) {
    let slot = Int(marker.slot)
    index.remove(marker.slot)
    slots[slot] = nil
    if byID[marker.id] === marker { byID[marker.id] = nil }
    if marker.origin == origin && !slotsFollowSerials { slotOfSerial[marker.serial - 1] = -1 }
    count -= 1
    marker.slot = -1
    if slots.count - count > max(count, 64) { compact() }
  }

  /// Empties the store; returns the markers it held, in order of addition.
  mutating func removeAll() -> [Marker] {
    let removed = markers
    for marker in removed { marker.slot = -1 }
    slots.removeAll()
    count = 0
    byID.removeAll()
    for index in slotOfSerial.indices { slotOfSerial[index] = -1 }
    index.removeAll()
    iconExtent = IconExtent()
    extentCoversDefaults = false
    return removed
  }

  /// Keeps the index exact after a marker moved.
  mutating func didMove(_ marker: Marker) {
    let world = Mercator.worldPoint(marker.position)
    index.move(marker.slot, x: world.x, y: world.y)
  }

  /// Keeps the icon extent covering a marker whose icon, anchor or rotation may have changed.
  mutating func didChangeIcon(of marker: Marker) {
    iconExtent.include(marker)
  }

  /// Closes the gaps removals left: every marker gets the slot of its rank (order kept), and
  /// the index is rebuilt. Amortized over the removals that made the gaps.
  private mutating func compact() {
    stopFollowingSerials()
    let kept = markers
    slots = kept
    index.removeAll()
    for (slot, marker) in kept.enumerated() {
      marker.slot = Int32(slot)
      if !(marker.hasExplicitID || marker.origin != origin) { slotOfSerial[marker.serial - 1] = Int32(slot) }
      let world = Mercator.worldPoint(marker.position)
      index.insert(Int32(slot), x: world.x, y: world.y)
    }
  }

  /// Gives every marker created so far its entry in `slotOfSerial`, from now on kept.
  private mutating func stopFollowingSerials() {
    guard slotsFollowSerials else { return }
    slotsFollowSerials = false
    slotOfSerial = Array(repeating: -1, count: nextSerial - 1)
    for (slot, marker) in slots.enumerated() {
      if let marker, marker.origin == origin, !marker.hasExplicitID { slotOfSerial[marker.serial - 1] = Int32(slot) }
    }
  }

  /// Describes the first broken invariant, or nil when all hold (tests).
  func checkInvariants() -> String? {
    var filled = 0
    for (slot, marker) in slots.enumerated() {
      guard let marker else { continue }
      filled += 1
      if marker.slot != slot { return "marker \(marker.id) is in slot \(slot) but says \(marker.slot)" }
      if marker.hasExplicitID || marker.origin != origin {
        if byID[marker.id] !== marker { return "marker \(marker.id) is not found by its id" }
      } else if slotsFollowSerials ? marker.serial - 1 != slot : slotOfSerial[marker.serial - 1] != slot {
        return "marker \(marker.id)'s serial does not point at its slot \(slot)"
      }
      if self.marker(id: marker.id) !== marker { return "marker(id: \(marker.id)) finds another marker" }
      let world = Mercator.worldPoint(marker.position)
      var indexed = false
      index.forEach(inMinX: world.x, minY: world.y, maxX: world.x, maxY: world.y) {
        if $0 == Int32(slot) { indexed = true }
      }
      if !indexed { return "marker \(marker.id) is not in the index at its position" }
    }
    if filled != count { return "count is \(count) but \(filled) slots are filled" }
    if index.count != count { return "the index holds \(index.count) slots for \(count) markers" }
    for marker in byID.values where marker.slot < 0 || slots[Int(marker.slot)] !== marker {
      return "the id \(marker.id) names a marker that is not in the store"
    }
    return nil
  }
}
