import Testing

@testable import WaymarkCore
import WaymarkTesting

/// The camera controller on its own: the zoom range, the frame clock, a gesture's frames.
@Suite struct CameraControllerTests {
  private func controller(zoom: Double = 10) -> CameraController {
    CameraController(
      camera: CameraPosition(target: Places.sydney, zoom: zoom), viewSize: Size(width: 390, height: 844), minZoom: 2,
      maxZoom: 21)
  }

  @Test("R21: a new zoom range is validated, clamped to 0...30, and clamps the camera")
  func zoomRange() throws {
    var c = controller(zoom: 10)
    let clamped = try c.setZoomRange(min: 12, max: 40)
    #expect(clamped.zoom == 12)
    #expect(c.zoomRange == 12...30)
    #expect(throws: MapError.self) { try c.setZoomRange(min: 9, max: 8) }
    #expect(throws: MapError.self) { try c.setZoomRange(min: .nan, max: 8) }
    #expect(c.zoomRange == 12...30, "a refused range changes nothing")
  }

  @Test("R27: frames fall on multiples of 1 / rate, always after now")
  func frameClock() {
    #expect(CameraController.nextFrameTime(after: 0, rate: 60) == 1.0 / 60)
    #expect(CameraController.nextFrameTime(after: 1.0 / 60, rate: 60) == 2.0 / 60)
    #expect(CameraController.nextFrameTime(after: 0.5, rate: 2) == 1)
    #expect(CameraController.nextFrameTime(after: 0.49, rate: 2) == 0.5)
  }

  @Test("R25: a gesture moves the camera each frame and ends when the finger stops")
  func gestureFrames() throws {
    var c = controller()
    let still = c.stepCamera(at: 0)
    #expect(still == nil, "nothing moves")
    c.gesture = CameraGesture(kind: .rotate(degrees: 40), start: c.camera, startTime: 0, duration: 1)
    #expect(c.isMoving && c.needsFrames)
    let halfway = c.stepCamera(at: 0.5)
    let half = try #require(halfway)
    expectClose(half.camera.bearing, 340, "the content turns clockwise: the bearing decreases")
    let last = c.stepCamera(at: 1)
    let end = try #require(last)
    expectClose(end.camera.bearing, 320)
    #expect(c.gesture == nil && !c.needsFrames)
  }
}
