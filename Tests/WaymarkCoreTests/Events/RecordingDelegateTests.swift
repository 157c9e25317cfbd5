import Testing
import WaymarkCore
import WaymarkTesting

/// WaymarkTesting's recorder hears every callback through one method, so a callback the map
/// makes is always one line of `calls`, named by its handler name.
@Suite struct RecordingDelegateTests {
  /// The line each callback's sample event (``SampleEvents``) is recorded as.
  static func expectedLine(_ callback: DelegateCallback) -> String {
    switch callback {
    case .willMove: "will_move(true)"
    case .didTapMarker, .didTapInfoWindow, .didLongPressInfoWindow, .markerInfoWindow, .markerInfoContents,
      .didCloseInfoWindow, .didBeginDraggingMarker, .didDragMarker, .didEndDraggingMarker, .willRenderClusterMarker,
      .didRenderClusterMarker:
      "\(callback.name)(m)"
    case .didTapCluster: "did_tap_cluster(2)"
    case .didTapClusterItem: "did_tap_cluster_item(i1)"
    case .didTapOverlay: "did_tap_overlay(o)"
    case .didTapPOI: "did_tap_poi(p1:Park)"
    case .didChangeMapCapabilities: "did_change_map_capabilities(advanced_markers)"
    case .didTapFeatures: "did_tap_features(f1:LOCALITY)"
    case .didChangeCameraPosition, .idleAtCameraPosition, .didTapAtCoordinate, .didLongPressAtCoordinate,
      .didTapMyLocationButton, .didTapMyLocation, .didStartTileRendering, .didFinishTileRendering, .snapshotReady:
      callback.name
    }
  }

  @Test("Every callback delivered is recorded as one line: its handler name and the arguments it is about")
  func everyCallbackIsRecorded() throws {
    let f = try MapFixture()
    let marker = try f.marker("m", at: Places.sydney)
    let overlay = try f.map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 10), id: "o"))
    for callback in DelegateCallback.allCases {
      f.delegate.calls.removeAll()
      _ = f.delegate.mapView(f.map, receive: SampleEvents.event(of: callback, marker: marker, overlay: overlay))
      #expect(f.delegate.calls == [Self.expectedLine(callback)], "\(callback.name)")
    }
  }

  @Test("events leaves out camera frames and tile rendering, by callback, and keeps everything else")
  func eventsLeaveOutTheNoise() throws {
    let f = try MapFixture()
    let marker = try f.marker("m", at: Places.sydney)
    let overlay = try f.map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 10), id: "o"))
    for callback in DelegateCallback.allCases {
      _ = f.delegate.mapView(f.map, receive: SampleEvents.event(of: callback, marker: marker, overlay: overlay))
    }
    let noise: [DelegateCallback] = [
      .didChangeCameraPosition, .didStartTileRendering, .didFinishTileRendering, .snapshotReady,
    ]
    #expect(f.delegate.events == DelegateCallback.allCases.filter { !noise.contains($0) }.map(Self.expectedLine))
  }

  @Test("R6, R7, R17, R32: the closures answer the callbacks that return something, and run on the others")
  func closuresAnswer() throws {
    let f = try MapFixture()
    let marker = try f.marker("m", at: Places.sydney)
    var heard: [String] = []
    f.delegate.tapMarker = { _, marker in marker.id == "m" }
    f.delegate.tapPOI = { $0 == "p1" }
    f.delegate.myLocationButton = { true }
    f.delegate.infoWindow = { _ in text("window") }
    f.delegate.tapAt = { _, _ in heard.append("tap at") }
    f.delegate.closeInfoWindow = { _, marker in heard.append("closed \(marker.id)") }
    let here = Coordinate(latitude: 1, longitude: 2)
    #expect(f.delegate.mapView(f.map, receive: .didTapMarker(marker)).isHandled)
    #expect(
      f.delegate.mapView(f.map, receive: .didTapPOI(PointOfInterest(placeID: "p1", name: "P", location: here)))
        .isHandled)
    #expect(f.delegate.mapView(f.map, receive: .didTapMyLocationButton).isHandled)
    #expect(f.delegate.mapView(f.map, receive: .markerInfoWindow(marker)).content == text("window"))
    #expect(f.delegate.mapView(f.map, receive: .markerInfoContents(marker)).content == nil)
    #expect(!f.delegate.mapView(f.map, receive: .didTapAtCoordinate(here)).isHandled)
    _ = f.delegate.mapView(f.map, receive: .didCloseInfoWindow(marker))
    #expect(heard == ["tap at", "closed m"])
  }
}
