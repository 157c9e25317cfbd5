import Testing

@testable import WaymarkCore
import WaymarkTesting

/// The overlay store on its own (R15).
@Suite struct OverlayStoreTests {
  @Test("R15: ids are unique, serials count up, the topmost tappable overlay wins")
  func idsAndTopmost() throws {
    var store = OverlayStore()
    let circle = OverlayShape.circle(center: Places.sydney, radius: 50_000)
    let a = try store.add(OverlayOptions(shape: circle, tappable: true))
    let b = try store.add(OverlayOptions(shape: circle, id: "b", tappable: true))
    let hidden = try store.add(OverlayOptions(shape: circle, zIndex: 9))
    #expect([a.id, b.id, hidden.id] == ["overlay-1", "b", "overlay-3"])
    #expect(throws: MapError.self) { try store.add(OverlayOptions(shape: circle, id: "b")) }
    let projection = Projection(
      camera: CameraPosition(target: Places.sydney, zoom: 8), viewSize: Size(width: 390, height: 844))
    let centre = Point(x: 195, y: 422)
    #expect(
      store.topmost(at: centre, projection: projection, tolerance: 8) === b, "most recently added; untappable ignored")
    let removed = store.remove(b), again = store.remove(b)
    #expect(removed && !again)
    #expect(store.topmost(at: centre, projection: projection, tolerance: 8) === a)
  }

  @Test("A generated overlay id never repeats one given explicitly")
  func generatedIDsSkipGivenOnes() throws {
    var store = OverlayStore()
    let circle = OverlayShape.circle(center: Places.sydney, radius: 50_000)
    let given = try store.add(OverlayOptions(shape: circle, id: "overlay-2"))
    let made = try (1...2).map { _ in try store.add(OverlayOptions(shape: circle)) }
    #expect([given.id] + made.map(\.id) == ["overlay-2", "overlay-3", "overlay-4"])
  }
}
