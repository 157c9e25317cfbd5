import Testing
@testable import WaymarkCore
import WaymarkTesting

@Suite struct TapTests {
  @Test("R14: A tap on the map reports the coordinate before deselecting")
  func aTapOnTheMapReportsTheCoordinateBeforeDeselecting() throws {
    // R14: did_tap_at_coordinate fires before the implicit deselection.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let m = try fixture.marker("m", at: Places.sydney, title: "M")
    fixture.map.selectedMarker = m
    fixture.delegate.calls.removeAll()
    var selectedDuringTap: Marker?
    fixture.delegate.tapAt = { map, _ in selectedDuringTap = map.selectedMarker }
    try fixture.map.tap(at: Point(x: 50, y: 50))
    #expect(fixture.delegate.calls == ["did_tap_at_coordinate", "did_close_info_window(m)"])
    #expect(selectedDuringTap === m)
    #expect(fixture.map.selectedMarker == nil)
    let record = try #require(fixture.map.trace.records.first { $0.event == .callback(.didTapAtCoordinate) })
    let expected = try #require(fixture.map.projection.coordinate(for: Point(x: 50, y: 50)))
    expectClose(try #require(record.coordinate), expected)
  }

  @Test("R15: Tappable overlays get the tap topmost first") func tappableOverlaysGetTheTapTopmostFirst() throws {
    // R15: did_tap_overlay instead of did_tap_at_coordinate, then deselection; topmost z wins;
    // overlays are untappable by default.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let m = try fixture.marker("m", at: Places.melbourne, title: "M")
    fixture.map.selectedMarker = m
    try fixture.map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 5000), id: "untappable"))
    try fixture.map.addOverlay(
      OverlayOptions(shape: .circle(center: Places.sydney, radius: 5000), id: "low", tappable: true, zIndex: 1))
    try fixture.map.addOverlay(
      OverlayOptions(shape: .circle(center: Places.sydney, radius: 2000), id: "high", tappable: true, zIndex: 2))
    try fixture.map.addOverlay(
      OverlayOptions(shape: .circle(center: Places.sydney, radius: 5000), id: "later", tappable: true, zIndex: 1))
    fixture.delegate.calls.removeAll()
    try fixture.map.tap(Places.sydney)
    #expect(fixture.delegate.calls == ["did_tap_overlay(high)", "did_close_info_window(m)"])
    let east = Coordinate(latitude: Places.sydney.latitude, longitude: Places.sydney.longitude + 0.04)
    try fixture.map.tap(east)
    #expect(fixture.delegate.calls.last == "did_tap_overlay(later)", "same z: the most recently added")
  }

  @Test func overlayShapesHitWhereTheyAre() throws {
    let fixture = try MapFixture(Coordinate(latitude: 0, longitude: 0), zoom: 8)
    let square = [(-1.0, -1.0), (-1, 1), (1, 1), (1, -1)].map { Coordinate(latitude: $0.0, longitude: $0.1) }
    let hole = [(-0.5, -0.5), (-0.5, 0.5), (0.5, 0.5), (0.5, -0.5)].map { Coordinate(latitude: $0.0, longitude: $0.1) }
    try fixture.map.addOverlay(
      OverlayOptions(shape: .polygon(outer: square, holes: [hole]), id: "donut", tappable: true))
    try fixture.map.addOverlay(
      OverlayOptions(
        shape: .polyline(
          path: [Coordinate(latitude: 1.2, longitude: -1), Coordinate(latitude: 1.2, longitude: 1)], width: 2),
        id: "line", tappable: true))
    try fixture.map.tap(Coordinate(latitude: 0.75, longitude: 0))
    try fixture.map.tap(Coordinate(latitude: 0, longitude: 0))
    try fixture.map.tap(Coordinate(latitude: 1.2, longitude: 0.3))
    #expect(fixture.delegate.events == ["did_tap_overlay(donut)", "did_tap_at_coordinate", "did_tap_overlay(line)"])
  }

  @Test("R5: Markers win over overlays") func markersWinOverOverlays() throws {
    // R5: markers always win over non-marker overlays (the default policy).
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.map.addOverlay(
      OverlayOptions(shape: .circle(center: Places.sydney, radius: 9000), tappable: true, zIndex: 100))
    try fixture.marker("m", at: Places.sydney)
    try fixture.map.tap(at: fixture.map.iconCenterForTest(Places.sydney))
    #expect(fixture.delegate.events.first == "did_tap_marker(m)")
  }

  @Test("R16: A tap inside the window is only a window tap") func aTapInsideTheWindowIsOnlyAWindowTap() throws {
    // R16: did_tap_info_window and nothing else; long press: did_long_press_info_window.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let m = try fixture.marker("m", at: Places.sydney, title: "Sydney", snippet: "Population: 4,605,992")
    fixture.map.selectedMarker = m
    fixture.delegate.calls.removeAll()
    let frame = try #require(fixture.map.infoWindowFrame)
    let anchor = try #require(fixture.map.screenPoint(of: m))
    expectClose(frame.maxY + 10, anchor.y - 43, tolerance: 1e-9)
    try fixture.map.tapInfoWindow()
    try fixture.map.longPressInfoWindow()
    #expect(fixture.delegate.calls == ["did_tap_info_window(m)", "did_long_press_info_window(m)"])
    #expect(fixture.map.selectedMarker === m)
    fixture.map.selectedMarker = nil
    #expect(throws: MapError.noInfoWindow(action: "tapInfoWindow")) { try fixture.map.tapInfoWindow() }
  }

  @Test("R17: POI taps report the place and deselect") func poiTapsReportThePlaceAndDeselect() throws {
    // R17: did_tap_poi(place_id, name, location); no default window on iOS; deselects, before
    // the handler runs (R49).
    let fixture = try MapFixture(Places.sydney, zoom: 14)
    let m = try fixture.marker("m", at: Places.melbourne, title: "M")
    fixture.map.selectedMarker = m
    let opera = Coordinate(latitude: -33.8568, longitude: 151.2153)
    try fixture.map.addPointOfInterest(
      PointOfInterest(placeID: "ChIJ3S-JXmauEmsRUcIaWtf4MzE", name: "Sydney Opera House", location: opera))
    fixture.delegate.calls.removeAll()
    try fixture.map.tap(opera)
    #expect(
      fixture.delegate.calls == [
        "did_close_info_window(m)", "did_tap_poi(ChIJ3S-JXmauEmsRUcIaWtf4MzE:Sydney Opera House)",
      ])
    #expect(fixture.map.infoWindow == nil)
    let record = try #require(fixture.map.trace.records.first { $0.event == .callback(.didTapPOI) })
    #expect(
      record.extra == [
        TraceField("place_id", .string("ChIJ3S-JXmauEmsRUcIaWtf4MzE")),
        TraceField("name", .string("Sydney Opera House")),
      ])
  }

  @Test func inputFromInsideACallbackIsRefused() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    try fixture.marker("m", at: Places.sydney)
    var error: MapError?
    fixture.delegate.tapMarker = { map, _ in
      do { try map.tap(at: Point(x: 10, y: 10)) } catch let e as MapError { error = e } catch {}
      return true
    }
    try fixture.map.tap(at: fixture.map.iconCenterForTest(Places.sydney))
    #expect(error == .reentrantInput(action: "tap", callback: "did_tap_marker"))
    #expect(fixture.delegate.events == ["did_tap_marker(m)"])
  }

  @Test func featureLayersAreReportedOncePerLayer() throws {
    let fixture = try MapFixture(Coordinate(latitude: 0, longitude: 0), zoom: 8)
    let square = [(-1.0, -1.0), (-1, 1), (1, 1), (1, -1)].map { Coordinate(latitude: $0.0, longitude: $0.1) }
    try fixture.map.addFeatureLayer(
      FeatureLayer(
        name: "LOCALITY",
        features: [Feature(placeID: "p1", boundary: square), Feature(placeID: "p2", boundary: square)]))
    try fixture.map.addFeatureLayer(
      FeatureLayer(
        name: "COUNTRY",
        features: [
          Feature(
            placeID: "far", boundary: square.map { Coordinate(latitude: $0.latitude + 10, longitude: $0.longitude) })
        ]))
    try fixture.map.tap(Coordinate(latitude: 0, longitude: 0))
    #expect(fixture.delegate.events == ["did_tap_features(p1,p2:LOCALITY)", "did_tap_at_coordinate"])
  }
}
