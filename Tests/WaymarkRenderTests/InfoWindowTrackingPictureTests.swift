import Testing
import WaymarkCore

@testable import WaymarkRender

/// R7: the picture shows the info window as the map keeps it, frozen or tracking.
@Suite struct InfoWindowTrackingPictureTests {
  private func windowTexts(_ map: MapView) throws -> [String] {
    try #require(picture(of: map).all("g", class: "info-window").first).texts
  }

  @Test("R7: The picture keeps an open window's text until it is shown again")
  func thePictureKeepsAnOpenWindowsText() throws {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 10))
    let marker = try map.addMarker(MarkerOptions(position: Places.melbourne, id: "m", title: "Before"))
    try map.tap(marker)
    try marker.update { $0.title = "After" }
    #expect(try windowTexts(map) == ["Before"])
    map.selectedMarker = nil
    map.selectedMarker = marker
    #expect(try windowTexts(map) == ["After"])
  }

  @Test("R7: The picture shows a tracking marker's change at once")
  func thePictureShowsATrackingMarkersChangeAtOnce() throws {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 10))
    var options = MarkerOptions(position: Places.melbourne, id: "m", title: "Before")
    options.tracksInfoWindowChanges = true
    let marker = try map.addMarker(options)
    try map.tap(marker)
    try marker.update { $0.title = "After" }
    #expect(try windowTexts(map) == ["After"])
  }
}
