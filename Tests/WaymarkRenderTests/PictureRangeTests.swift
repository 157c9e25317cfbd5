import Testing
import WaymarkCore

@testable import WaymarkRender

/// R20: the picture reports the camera the way the trace does, every value in its range.
@Suite struct PictureRangeTests {
  @Test("R20: The picture's camera attributes stay in their ranges")
  func thePicturesCameraAttributesStayInTheirRanges() throws {
    let map = try MapView(
      camera: CameraPosition(
        target: Coordinate(latitude: 10, longitude: 179.99999999), zoom: 5, bearing: 359.99999999999994))
    let svg = try picture(of: map)
    #expect(svg["data-bearing"] == "0" && svg["data-lng"] == "-180")
  }
}
