import Testing

@testable import WaymarkCore
import WaymarkTesting

/// The marker store, driven directly (not through the map's methods, so no callbacks):
/// slots in order of addition, serials and ids, the spatial index and the icon extent, under
/// random additions and removals. A store lives in its map: the markers at their defaults
/// ask it for their serials.
@Suite struct MarkerStoreTests {
  private func options(_ i: Int, id: String? = nil) -> MarkerOptions {
    MarkerOptions(position: Coordinate(latitude: Double(i % 80), longitude: Double(i % 170)), id: id)
  }

  private func makeMap() throws -> MapView {
    try MapView(camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 2))
  }

  @Test("Markers come back in order of addition without sorting, and ids resolve both ways")
  func orderAndIDs() throws {
    let map = try makeMap()
    let a = map.store.add(options(1)), b = map.store.add(options(2, id: "bee")), c = map.store.add(options(3))
    #expect(map.store.markers.map(\.id) == ["marker-1", "bee", "marker-3"])
    #expect(a.isAtDefaults && !b.isAtDefaults && c.serial == 3)
    map.store.remove(a)
    #expect(!a.isAtDefaults && a.serial == 1, "a marker that leaves keeps its serial in extras of its own")
    map.store.insert(a)  // added again: most recently added now (R4)
    #expect(map.store.markers.map(\.id) == ["bee", "marker-3", "marker-1"])
    #expect(map.store.marker(id: "marker-1") === a && map.store.marker(id: "bee") === b)
    #expect(map.store.marker(id: "marker-2") == nil, "marker-2 is bee's serial, but bee has an explicit id")
    #expect(map.store.checkInvariants() == nil)
  }

  @Test("Generated ids resolve before and after a marker first takes a slot other than its serial's")
  func generatedIDsAcrossSlotChanges() throws {
    let map = try makeMap()
    let made = (1...5).map { map.store.add(options($0)) }
    map.store.remove(made[1])
    #expect(map.store.marker(id: "marker-2") == nil && map.store.marker(id: "marker-3") === made[2])
    #expect(map.store.marker(id: "marker-6") == nil && map.store.marker(id: "marker-0") == nil)
    #expect(map.store.checkInvariants() == nil)
    map.store.insert(made[1])  // added again: a new slot, at the end
    let sixth = map.store.add(options(6))
    for (serial, marker) in zip(1..., made + [sixth]) {
      #expect(map.store.marker(id: "marker-\(serial)") === marker)
      #expect(marker.serial == serial && marker.id == "marker-\(serial)")
    }
    #expect(map.store.checkInvariants() == nil)
    let removed = map.store.removeAll()
    #expect(removed.map(\.serial) == [1, 3, 4, 5, 2, 6], "markers that leave keep their serials")
    let seventh = map.store.add(options(7))
    #expect(map.store.marker(id: "marker-7") === seventh && map.store.marker(id: "marker-1") == nil)
    #expect(map.store.checkInvariants() == nil)
  }

  @Test("A marker of another map keeps its generated id here")
  func foreignMarkers() throws {
    let here = try makeMap()
    let there = try makeMap()
    _ = there.store.add(options(4))
    let foreign = there.store.add(options(5))
    there.store.remove(foreign)
    let own = here.store.add(options(6))
    here.store.insert(foreign)
    foreign.map = here
    #expect(here.store.marker(id: "marker-1") === own)
    #expect(here.store.marker(id: "marker-2") === foreign, "found by its id, though this map made no marker-2")
    #expect(here.store.checkInvariants() == nil)
  }

  @Test("A generated id never repeats one given explicitly or brought from another map")
  func generatedIDsSkipTakenOnes() throws {
    let map = try makeMap()
    let given = map.store.add(options(1, id: "marker-3"))  // serial 1: marker-3 is taken from now on
    let padded = map.store.add(options(2, id: "marker-04"))  // not the id of serial 4
    let made = (3...5).map { map.store.add(options($0)) }
    #expect(made.map(\.id) == ["marker-4", "marker-5", "marker-6"], "serial 3 skipped")
    #expect(map.store.marker(id: "marker-3") === given && map.store.marker(id: "marker-04") === padded)
    for marker in made { #expect(map.store.marker(id: marker.id) === marker) }
    #expect(map.store.checkInvariants() == nil)
    let there = try makeMap()
    let theirs = (1...8).map { there.store.add(options($0)) }
    there.store.remove(theirs[7])
    map.store.insert(theirs[7])  // marker-8 of the other map
    theirs[7].map = map
    let seventh = map.store.add(options(7)), ninth = map.store.add(options(9))
    #expect([seventh.id, ninth.id] == ["marker-7", "marker-9"], "serial 8 skipped")
    #expect(map.store.marker(id: "marker-8") === theirs[7] && map.store.marker(id: "marker-9") === ninth)
    #expect(map.store.checkInvariants() == nil)
  }

  @Test("Random additions and removals keep every invariant; gaps are compacted away")
  func randomOperationsKeepTheInvariants() throws {
    let map = try makeMap()
    var live: [(marker: Marker, id: String)] = []
    var rng = SplitMix64(seed: 42)
    for step in 0..<3000 {
      if live.isEmpty || rng.unit() < 0.55 {
        let draw = rng.unit()
        // Some explicit ids take the generated id of a serial still to come (skipped then).
        let id = draw < 0.2 ? "m\(step)" : draw < 0.25 ? "marker-\(map.store.nextSerial + 3 + step % 2)" : nil
        let marker = map.store.add(options(step, id: map.store.marker(id: id ?? "") == nil ? id : nil))
        live.append((marker, marker.id))
      } else {
        let (marker, id) = live.remove(at: Int(rng.next() % UInt64(live.count)))
        map.store.remove(marker)
        #expect(marker.ownSlot == -1 && marker.id == id)
      }
      if step % 97 == 0 { #expect(map.store.checkInvariants() == nil, "step \(step)") }
    }
    #expect(map.store.markers.map(ObjectIdentifier.init) == live.map { ObjectIdentifier($0.marker) })
    #expect(map.store.markers.map(\.id) == live.map(\.id), "ids survive the compactions")
    #expect(map.store.slots.count <= 2 * live.count + 64, "removals leave at most as many gaps as markers")
    #expect(map.store.checkInvariants() == nil)
    let removed = map.store.removeAll()
    #expect(removed.count == live.count && map.store.count == 0 && map.store.checkInvariants() == nil)
    #expect(removed.map(\.id) == live.map(\.id))
  }

  @Test("R4: the topmost hit is the highest z-index, then the most recently added")
  func topmostOrder() throws {
    let map = try makeMap()
    let here = Coordinate(latitude: 10, longitude: 10)
    var low = MarkerOptions(position: here, id: "low")
    low.zIndex = -1
    let first = map.store.add(MarkerOptions(position: here, id: "first"))
    _ = map.store.add(MarkerOptions(position: here, id: "second"))
    _ = map.store.add(low)
    let second = map.store.marker(id: "second")
    let projection = Projection(camera: CameraPosition(target: here, zoom: 10), viewSize: Size(width: 390, height: 844))
    let context = MarkerStore.HitTestContext(projection: projection, flatMarkerBearing: 0, tapsTransparentMarkers: true)
    let tap = Point(x: 195, y: 422 - 20)
    #expect(map.store.topmostMarker(at: tap, context) === second)
    #expect(map.store.markers(at: tap, context).map(\.id) == ["second", "first", "low"])
    map.store.remove(first)
    map.store.insert(first)
    #expect(map.store.topmostMarker(at: tap, context) === first)
  }
}
