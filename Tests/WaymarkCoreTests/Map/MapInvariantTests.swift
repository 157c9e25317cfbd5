import Testing
import WaymarkCore
import WaymarkTesting

/// The map as a façade over parts: whatever input arrives, and whatever the delegate does
/// from inside its callbacks, every part's invariants hold between inputs.
@Suite struct MapInvariantTests {
  @Test("Every part's invariants hold after each of 600 random inputs and callbacks that change the map")
  func invariantsHoldUnderRandomInput() throws {
    for policy in [BehaviorPolicy.ios, .android, .web] {
      let f = try MapFixture(Places.melbourne, zoom: 6, policy: policy)
      var rng = SplitMix64(seed: 2026)
      var markers: [Marker] = []
      for i in 0..<12 {
        var options = MarkerOptions(
          position: Coordinate(latitude: -37.8 + rng.unit() * 2, longitude: 144.9 + rng.unit() * 2), id: "m\(i)",
          title: i % 3 == 0 ? nil : "M\(i)")
        options.draggable = i % 4 == 0
        options.zIndex = Int32(i % 3)
        markers.append(try f.map.addMarker(options))
      }
      // The delegate vetoes some taps, supplies some windows, and changes the map from
      // inside marker_info_window (deferred, R13) and did_close_info_window.
      f.delegate.tapMarker = { _, marker in marker.id.hasSuffix("5") }
      f.delegate.infoWindow = { [map = f.map] marker in  // not f: it holds the delegate
        if marker.id == "m4", let other = map.marker(id: "m7") { map.selectedMarker = other }
        return marker.id == "m2" ? text("two") : nil
      }
      f.delegate.closeInfoWindow = { map, marker in if marker.id == "m8" { try? map.remove(marker) } }
      for step in 0..<200 {
        let marker = markers[Int(rng.next() % UInt64(markers.count))]
        let point = Point(x: rng.unit() * 390, y: rng.unit() * 844)
        switch rng.next() % 10 {
        case 0: try? f.map.tap(marker)
        case 1: try f.map.tap(at: point)
        case 2: try? f.map.tapInfoWindow()
        case 3: try f.map.longPress(at: point)
        case 4: try? f.map.drag(marker, to: Places.sydney, duration: 0.2)
        case 5: try f.map.pan(dx: rng.unit() * 50, dy: 0, duration: 0.1)
        case 6: try f.map.animate(.zoomBy(rng.unit() - 0.5), duration: 0.2)
        case 7: f.map.selectedMarker = rng.unit() < 0.5 ? marker : nil
        case 8:
          if marker.map == nil { try f.map.add(marker) } else if rng.unit() < 0.3 { try f.map.remove(marker) }
        default: try f.map.advance(by: rng.unit() * 0.3)
        }
        #expect(f.map.checkInvariants() == nil, "\(policy.name), step \(step)")
        if step % 50 == 49 { try f.map.settle() }
      }
      try f.map.settle()
      #expect(f.map.checkInvariants() == nil)
      #expect(f.map.isSettled)
      let events = Set(f.map.trace.records.map(\.event.rawValue))
      for exercised in ["did_tap_marker", "did_begin_dragging_marker", "did_close_info_window", "info_window_shown"] {
        #expect(events.contains(exercised), "\(policy.name): \(exercised) never happened")
      }
      if policy.name == "ios" { #expect(events.contains("deferred"), "R13 was never exercised") }
    }
  }
}
