import Testing
import WaymarkTesting

@testable import WaymarkCore

/// R48: "the image may have multiple frames": a multi-frame icon shows its frames in turn,
/// and a tap tests the frame shown.
@Suite struct MultiFrameIconTests {
  private let frames = [
    MarkerIconFrame(name: "small", size: Size(width: 20, height: 20)),
    MarkerIconFrame(name: "tall", size: Size(width: 20, height: 80)),
  ]

  @Test("R48: the frame shown cycles with virtual time, each for duration / frames seconds")
  func framesCycle() {
    let icon = MarkerIcon.frames(frames, duration: 1)
    #expect(icon.frame(at: 0)?.name == "small")
    #expect(icon.frame(at: 0.49)?.name == "small")
    #expect(icon.frame(at: 0.5)?.name == "tall")
    #expect(icon.frame(at: 1.2)?.name == "small")
    #expect(MarkerIcon.defaultPin.frame(at: 1) == nil)
  }

  @Test("R48: hit-testing uses the size of the frame shown now")
  func hitTestingUsesTheFrameSize() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    var options = MarkerOptions(position: Places.sydney, id: "m")
    options.icon = .frames(frames, duration: 1)
    let marker = try map.addMarker(options)
    let anchor = try #require(map.screenPoint(of: marker))
    let high = Point(x: anchor.x, y: anchor.y - 50)
    #expect(map.topmostMarker(at: high) == nil, "the 20-point frame")
    try map.advance(by: 0.5)
    #expect(map.topmostMarker(at: high) === marker, "the 80-point frame")
    #expect(marker.iconSize == Size(width: 20, height: 80))
  }

  @Test("R48: frames are validated: none, a bad size or a bad duration is refused, naming the field")
  func badFramesAreRefused() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    func add(_ icon: MarkerIcon) throws {
      var options = MarkerOptions(position: Places.sydney)
      options.icon = icon
      try map.addMarker(options)
    }
    #expect(
      throws: MapError.invalidValue(
        field: "marker.icon.frames", value: "{}", reason: "is empty (give at least one frame)")
    ) { try add(.frames([], duration: 1)) }
    #expect(throws: MapError.invalidValue(field: "marker.icon.frames[2].width", value: "-1", reason: "is negative")) {
      try add(.frames([frames[0], MarkerIconFrame(name: "bad", size: Size(width: -1, height: 3))], duration: 1))
    }
    #expect(throws: MapError.invalidValue(field: "marker.icon.duration", value: "0", reason: "is not positive")) {
      try add(.frames(frames, duration: 0))
    }
    #expect(map.numberOfMarkers == 0, "nothing added")
  }
}
