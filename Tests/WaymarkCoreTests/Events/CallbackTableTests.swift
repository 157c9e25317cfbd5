import Testing
import WaymarkCore
import WaymarkTesting

/// The callback table is the one declaration of the 27 callbacks: every event carries the
/// arguments its row declares, reaches the Google-shaped method of its callback, and leaves
/// the trace record its arguments say.
@Suite struct CallbackTableTests {
  @Test("Each event carries the arguments its row declares, and names its callback")
  func eventsMatchTheTable() throws {
    let f = try MapFixture()
    let marker = try f.marker("m", at: Places.sydney)
    let overlay = try f.map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 10)))
    for callback in DelegateCallback.allCases {
      let event = SampleEvents.event(of: callback, marker: marker, overlay: overlay)
      #expect(event.callback == callback)
      var kinds: [CallbackSignature.Argument.Kind] = []
      event.forEachArgument { kinds.append($0.kind) }
      #expect(kinds == callback.signature.arguments.map(\.type), "\(callback.name)")
      #expect(DelegateCallback(name: callback.name) == callback)
    }
    #expect(Set(DelegateCallback.allCases.map(\.name)).count == 27)
  }

  @Test("Each event reaches the delegate method of its callback, whose answer comes back")
  func eventsReachTheirMethods() throws {
    let f = try MapFixture()
    let marker = try f.marker("m", at: Places.sydney)
    let overlay = try f.map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 10)))
    f.delegate.tapMarker = { _, _ in true }
    f.delegate.myLocationButton = { true }
    f.delegate.tapPOI = { _ in true }
    f.delegate.tapCluster = { _, _ in true }
    f.delegate.tapClusterItem = { _, _ in true }
    f.delegate.infoWindow = { _ in text("window") }
    f.delegate.infoContents = { _ in text("contents") }
    for callback in DelegateCallback.allCases {
      f.delegate.calls.removeAll()
      let answer = f.delegate.mapView(
        f.map, receive: SampleEvents.event(of: callback, marker: marker, overlay: overlay))
      #expect(
        f.delegate.calls.count == 1 && f.delegate.calls[0].hasPrefix(callback.name),
        "\(callback.name): \(f.delegate.calls)")
      switch callback.signature.returns {
      case .nothing: #expect(!answer.isHandled && answer.content == nil)
      case .handled: #expect(answer.isHandled, "\(callback.name)")
      case .content: #expect(answer.content != nil, "\(callback.name)")
      }
    }
  }

  @Test("A callback's trace record takes its fields from its arguments, in the contract's key order")
  func traceRecordsFollowTheArguments() throws {
    let f = try MapFixture()
    try f.map.addFeatureLayer(
      FeatureLayer(
        name: "LOCALITY",
        features: [
          Feature(
            placeID: "f1",
            boundary: [Places.melbourne.offset(-1, -1), Places.melbourne.offset(-1, 1), Places.melbourne.offset(1, 0)])
        ]))
    f.map.capabilities = [.advancedMarkers, .dataDrivenStyling]
    try f.map.tap(Places.melbourne)
    let lines = f.map.trace.records.filter {
      $0.event == .callback(.didTapFeatures) || $0.event == .callback(.didChangeMapCapabilities)
    }
    .map(TraceJSON.line)
    #expect(
      lines == [
        #"{"t":0,"event":"did_change_map_capabilities","capabilities":["advanced_markers","data_driven_styling"]}"#,
        #"{"t":0,"event":"did_tap_features","coordinate":{"lat":-37.81969,"lng":144.966085},"layer":"LOCALITY","features":["f1"]}"#,
      ])
  }
}

extension Coordinate {
  fileprivate func offset(_ lat: Double, _ lng: Double) -> Coordinate {
    Coordinate(latitude: latitude + lat, longitude: longitude + lng)
  }
}
