import Testing

@testable import WaymarkCore
import WaymarkTesting

/// The marker store on its own: slots in order of addition, ids, the spatial index and the
/// icon extent, under random additions and removals.
@Suite struct MarkerStoreTests {
  private func options(_ i: Int, id: String? = nil) -> MarkerOptions {
    MarkerOptions(position: Coordinate(latitude: Double(i % 80), longitude: Double(i % 170)), id: id)
  }

  @Test("Markers come back in order of addition without sorting, and ids resolve both ways")
  func orderAndIDs() throws {
    var store = MarkerStore(origin: 7)
    let a = store.makeMarker(options(1)), b = store.makeMarker(options(2, id: "bee")), c = store.makeMarker(options(3))
    for marker in [a, b, c] { store.insert(marker) }
    #expect(store.markers.map(\.id) == ["marker-1", "bee", "marker-3"])
    store.remove(a)
    store.insert(a)  // added again: most recently added now (R4)
    #expect(store.markers.map(\.id) == ["bee", "marker-3", "marker-1"])
    #expect(store.marker(id: "marker-1") === a && store.marker(id: "bee") === b)
    #expect(store.marker(id: "marker-2") == nil, "marker-2 is bee's serial, but bee has an explicit id")
    #expect(store.checkInvariants() == nil)
  }

  @Test("Generated ids resolve before and after a marker first takes a slot other than its serial's")
  func generatedIDsAcrossSlotChanges() throws {
    var store = MarkerStore(origin: 5)
    let made = (1...5).map { store.makeMarker(options($0)) }
    for marker in made { store.insert(marker) }
    store.remove(made[1])
    #expect(store.marker(id: "marker-2") == nil && store.marker(id: "marker-3") === made[2])
    #expect(store.marker(id: "marker-6") == nil && store.marker(id: "marker-0") == nil)
    #expect(store.checkInvariants() == nil)
    store.insert(made[1])  // added again: a new slot, at the end
    let sixth = store.makeMarker(options(6))
    store.insert(sixth)
    for (serial, marker) in zip(1..., made + [sixth]) { #expect(store.marker(id: "marker-\(serial)") === marker) }
    #expect(store.checkInvariants() == nil)
    _ = store.removeAll()
    let seventh = store.makeMarker(options(7))
    store.insert(seventh)
    #expect(store.marker(id: "marker-7") === seventh && store.marker(id: "marker-1") == nil)
    #expect(store.checkInvariants() == nil)
  }

  @Test("A marker of another map keeps its generated id here")
  func foreignMarkers() throws {
    var here = MarkerStore(origin: 1)
    var there = MarkerStore(origin: 2)
    _ = there.makeMarker(options(4))
    let foreign = there.makeMarker(options(5))
    let own = here.makeMarker(options(6))
    here.insert(own)
    here.insert(foreign)
    #expect(here.marker(id: "marker-1") === own)
    #expect(here.marker(id: "marker-2") === foreign, "found by its id, though this map made no marker-2")
    #expect(here.checkInvariants() == nil)
  }

  @Test("Random additions and removals keep every invariant; gaps are compacted away")
  func randomOperationsKeepTheInvariants() throws {
    var store = MarkerStore(origin: 3)
    var live: [Marker] = []
    var rng = SplitMix64(seed: 42)
    for step in 0..<3000 {
      if live.isEmpty || rng.unit() < 0.55 {
        let marker = store.makeMarker(options(step, id: rng.unit() < 0.2 ? "m\(step)" : nil))
        store.insert(marker)
        live.append(marker)
      } else {
        let marker = live.remove(at: Int(rng.next() % UInt64(live.count)))
        store.remove(marker)
        #expect(marker.slot == -1)
      }
      if step % 97 == 0 { #expect(store.checkInvariants() == nil, "step \(step)") }
    }
    #expect(store.markers.map(ObjectIdentifier.init) == live.map(ObjectIdentifier.init))
    #expect(store.slots.count <= 2 * live.count + 64, "removals leave at most as many gaps as markers")
    #expect(store.checkInvariants() == nil)
    let removed = store.removeAll()
    #expect(removed.count == live.count && store.count == 0 && store.checkInvariants() == nil)
  }

  @Test("R4: the topmost hit is the highest z-index, then the most recently added")
  func topmostOrder() throws {
    var store = MarkerStore(origin: 4)
    let here = Coordinate(latitude: 10, longitude: 10)
    var low = MarkerOptions(position: here, id: "low")
    low.zIndex = -1
    let first = store.makeMarker(MarkerOptions(position: here, id: "first"))
    let second = store.makeMarker(MarkerOptions(position: here, id: "second"))
    let under = store.makeMarker(low)
    for marker in [first, second, under] { store.insert(marker) }
    let projection = Projection(camera: CameraPosition(target: here, zoom: 10), viewSize: Size(width: 390, height: 844))
    let context = MarkerStore.HitTestContext(projection: projection, flatMarkerBearing: 0, tapsTransparentMarkers: true)
    let tap = Point(x: 195, y: 422 - 20)
    #expect(store.topmostMarker(at: tap, context) === second)
    #expect(store.markers(at: tap, context).map(\.id) == ["second", "first", "low"])
    store.remove(first)
    store.insert(first)
    #expect(store.topmostMarker(at: tap, context) === first)
  }
}
