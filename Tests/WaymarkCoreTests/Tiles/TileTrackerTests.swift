import Testing

@testable import WaymarkCore
import WaymarkTesting

/// The tile tracker on its own (R31).
@Suite struct TileTrackerTests {
  @Test("R31: snapshot_ready once per tile set, only when loaded and the camera is still")
  func snapshotOncePerSet() {
    var tracker = TileTracker()
    func view(_ target: Coordinate, zoom: Double) -> TileSet {
      TileSet(
        projection: Projection(
          camera: CameraPosition(target: target, zoom: zoom), viewSize: Size(width: 390, height: 844)))
    }
    func show(_ set: TileSet) -> Bool { tracker.show(set) }
    func snapshot(moving: Bool = false) -> Bool { tracker.takeSnapshot(cameraMoving: moving) }
    #expect(!snapshot(), "no tiles yet")
    #expect(show(view(Places.sydney, zoom: 10)))
    #expect(!show(view(Places.sydney, zoom: 10)), "the same tiles are not new")
    tracker.loading = VirtualClock().schedule(at: 1) {}
    #expect(!snapshot(), "still loading")
    tracker.loading = nil
    #expect(!snapshot(moving: true), "the camera moves")
    #expect(snapshot())
    #expect(!snapshot(), "once per set")
    #expect(show(view(Places.melbourne, zoom: 12)))
    #expect(snapshot(), "a new set gets its own")
  }
}
