import Testing
@testable import WaymarkCore
import WaymarkTesting

/// R49: a selection a tap's handler makes is not undone by the tap's implicit deselection.
@Suite struct TapHandlerSelectionTests {
  static let opera = Coordinate(latitude: -33.8568, longitude: 151.2153)

  @Test("R49: A POI handler that selects a marker keeps its window open")
  func aPOIHandlerThatSelectsAMarkerKeepsItsWindowOpen() throws {
    // Google's POI page: `mapView.selectedMarker = infoMarker` inside didTapPOIWithPlaceID
    // shows the window; the deselection the tap causes comes before the handler (R49, R17).
    let fixture = try MapFixture(Places.sydney, zoom: 14)
    let old = try fixture.marker("old", at: Places.melbourne, title: "Old")
    let info = try fixture.marker("info", at: Places.sydney, title: "Sydney Opera House")
    try fixture.map.addPointOfInterest(
      PointOfInterest(placeID: "ChIJ3S-JXmauEmsRUcIaWtf4MzE", name: "Sydney Opera House", location: Self.opera))
    fixture.map.selectedMarker = old
    let map = fixture.map
    fixture.delegate.tapPOI = { _ in
      map.selectedMarker = info
      return false
    }
    fixture.delegate.calls.removeAll()
    try fixture.map.tap(Self.opera)
    #expect(fixture.delegate.calls.first == "did_close_info_window(old)")
    #expect(fixture.delegate.calls.contains("did_tap_poi(ChIJ3S-JXmauEmsRUcIaWtf4MzE:Sydney Opera House)"))
    #expect(!fixture.delegate.calls.contains("did_close_info_window(info)"))
    #expect(fixture.map.selectedMarker === info)
    #expect(fixture.map.infoWindow?.marker === info)
  }

  @Test("R49: A map tap's handler that selects a marker keeps it selected")
  func aMapTapHandlerThatSelectsAMarkerKeepsItSelected() throws {
    // R14 keeps its order (did_tap_at_coordinate, then the deselection), but the
    // deselection concerns the marker selected when the finger landed (R49).
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let old = try fixture.marker("old", at: Places.melbourne, title: "Old")
    let picked = try fixture.marker("picked", at: Places.melbourne, title: "Picked")
    fixture.map.selectedMarker = old
    fixture.delegate.tapAt = { map, _ in map.selectedMarker = picked }
    fixture.delegate.calls.removeAll()
    try fixture.map.tap(at: Point(x: 50, y: 50))
    #expect(fixture.delegate.calls.first == "did_tap_at_coordinate")
    #expect(fixture.map.selectedMarker === picked)
    #expect(fixture.map.infoWindow?.marker === picked)
  }
}
