import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct SelectionTests {
  @Test("R6: Handled tap changes nothing") func handledTapChangesNothing() throws {
    // R6: true = handled: no selection change, no window change, no camera move.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let a = try fixture.marker("a", at: Places.sydney, title: "A")
    let b = try fixture.marker("b", at: Places.melbourne, title: "B")
    fixture.map.selectedMarker = a
    try fixture.quiet()
    fixture.delegate.tapMarker = { _, _ in true }
    try fixture.map.moveCamera(.setTarget(Places.melbourne))
    try fixture.quiet()
    let camera = fixture.map.camera
    try fixture.map.tap(b)
    try fixture.map.settle()
    #expect(fixture.delegate.events == ["did_tap_marker(b)"])
    #expect(fixture.map.selectedMarker === a && fixture.map.infoWindow?.marker === a)
    #expect(fixture.map.camera == camera)
  }

  @Test("R7: Resolution asks window then contents then uses the default")
  func resolutionAsksWindowThenContentsThenUsesTheDefault() throws {
    // R7: marker_info_window; if nil, marker_info_contents; if nil, the default window.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let m = try fixture.marker("m", at: Places.sydney, title: "Title", snippet: "Snippet")
    fixture.delegate.infoWindow = { _ in text("whole") }
    fixture.map.selectedMarker = m
    #expect(fixture.delegate.calls == ["marker_info_window(m)"], "contents not asked")
    #expect(fixture.map.infoWindow?.kind == .window)
    fixture.map.selectedMarker = nil
    fixture.delegate.calls.removeAll()
    fixture.delegate.infoWindow = nil
    fixture.delegate.infoContents = { _ in text("inside") }
    fixture.map.selectedMarker = m
    #expect(fixture.delegate.calls == ["marker_info_window(m)", "marker_info_contents(m)"])
    #expect(fixture.map.infoWindow?.kind == .contents)
    #expect(fixture.map.infoWindow?.content == text("inside"))
    fixture.map.selectedMarker = nil
    fixture.delegate.infoContents = nil
    fixture.map.selectedMarker = m
    #expect(fixture.map.infoWindow?.kind == .default)
    #expect(fixture.map.infoWindow?.content == nil)
  }

  @Test("R7, R8: No title no snippet means no default window but custom ones still show")
  func noTitleNoSnippetMeansNoDefaultWindowButCustomOnesStillShow() throws {
    // R7: both empty: the default window is not shown; a custom window still is.
    // R8: a marker with no window still becomes the selected marker.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let m = try fixture.marker("m", at: Places.sydney, title: "")
    try fixture.map.tap(m)
    #expect(fixture.map.selectedMarker === m)
    #expect(fixture.map.infoWindow == nil)
    #expect(!fixture.map.trace.records.contains { $0.event == .infoWindowShown })
    fixture.map.selectedMarker = nil
    fixture.delegate.infoContents = { _ in text("custom") }
    fixture.map.selectedMarker = m
    #expect(fixture.map.infoWindow?.kind == .contents)
  }

  @Test("R9, R10: Only one window is shown at a time") func onlyOneWindowIsShownAtATime() throws {
    // R9 and R10.1: selecting another marker closes the first window first.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let a = try fixture.marker("a", at: Places.sydney, title: "A")
    let b = try fixture.marker("b", at: Places.melbourne, title: "B")
    try fixture.map.tap(a)
    try fixture.map.settle()
    fixture.delegate.calls.removeAll()
    try fixture.map.tap(b)
    #expect(
      fixture.delegate.events.prefix(4) == [
        "did_tap_marker(b)", "did_close_info_window(a)", "marker_info_window(b)", "marker_info_contents(b)",
      ])
    #expect(fixture.map.infoWindow?.marker === b)
    let shown = fixture.map.trace.records.filter { $0.event == .infoWindowShown }.map(\.marker)
    let hidden = fixture.map.trace.records.filter { $0.event == .infoWindowHidden }.map(\.marker)
    #expect(shown == ["a", "b"] && hidden == ["a"])
  }

  @Test("R10: No close callback for a marker without a window") func noCloseCallbackForAMarkerWithoutAWindow() throws {
    // R10.1: did_close_info_window(N) only if N had a window shown.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let a = try fixture.marker("a", at: Places.sydney)
    let b = try fixture.marker("b", at: Places.melbourne)
    try fixture.map.tap(a)
    fixture.delegate.calls.removeAll()
    try fixture.map.tap(b)
    #expect(!fixture.delegate.calls.contains("did_close_info_window(a)"))
    #expect(fixture.map.selectedMarker === b)
  }

  @Test("R10: Retap closes and reopens or keeps") func retapClosesAndReopensOrKeeps() throws {
    // R10.2: retap = reopen (default): did_close_info_window(M), then resolution again.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let m = try fixture.marker("m", at: Places.sydney, title: "M")
    try fixture.map.tap(m)
    fixture.delegate.calls.removeAll()
    try fixture.map.tap(m)
    #expect(
      fixture.delegate.events.prefix(4) == [
        "did_tap_marker(m)", "did_close_info_window(m)", "marker_info_window(m)", "marker_info_contents(m)",
      ])
    #expect(fixture.map.selectedMarker === m && fixture.map.infoWindow?.marker === m)

    var keep = BehaviorPolicy(name: "keep")
    keep.retap = .keep
    let kept = try MapFixture(Places.sydney, zoom: 5, policy: keep)
    let k = try kept.marker("k", at: Places.sydney, title: "K")
    try kept.map.tap(k)
    kept.delegate.calls.removeAll()
    try kept.map.tap(k)
    #expect(kept.delegate.events == ["did_tap_marker(k)"])
  }

  @Test("R10: Selecting by tap centres the camera on the marker") func selectingByTapCentresTheCameraOnTheMarker()
    throws
  {
    // R10.4: the camera animates its target to M (zoom, bearing, tilt unchanged), default duration.
    let fixture = try MapFixture(Places.sydney, zoom: 5, bearing: 20)
    let m = try fixture.marker("m", at: Places.melbourne, title: "M")
    try fixture.quiet()
    try fixture.map.tap(m)
    try fixture.map.advance(by: 0.3)
    #expect(fixture.map.camera.target == Places.melbourne)
    #expect(fixture.map.camera.zoom == 5 && fixture.map.camera.bearing == 20)
    #expect(fixture.delegate.events.contains("will_move(false)"))
  }

  @Test("R11: Selecting from code skips the tap and the camera") func selectingFromCodeSkipsTheTapAndTheCamera() throws
  {
    // R11: no did_tap_marker and no camera move; nil hides the window; another map's marker is ignored.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let m = try fixture.marker("m", at: Places.melbourne, title: "M")
    try fixture.quiet()
    fixture.map.selectedMarker = m
    #expect(fixture.delegate.events == ["marker_info_window(m)", "marker_info_contents(m)"])
    #expect(fixture.map.infoWindow?.kind == .default)
    try fixture.map.settle()
    #expect(fixture.map.camera.target == Places.sydney)
    fixture.map.selectedMarker = nil
    #expect(fixture.delegate.events.last == "did_close_info_window(m)")
    let other = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 5))
    let stranger = try other.addMarker(MarkerOptions(position: Places.sydney))
    fixture.map.selectedMarker = stranger
    #expect(fixture.map.selectedMarker == nil)
    #expect(fixture.map.trace.records.last?.event == .warning)
  }

  @Test("R12: Removing the selected marker closes its window") func removingTheSelectedMarkerClosesItsWindow() throws {
    // R12: removing the selected marker hides its window, fires did_close_info_window, selected = nil.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let m = try fixture.marker("m", at: Places.sydney, title: "M")
    fixture.map.selectedMarker = m
    fixture.delegate.calls.removeAll()
    try fixture.map.remove(m)
    #expect(fixture.delegate.calls == ["did_close_info_window(m)"])
    #expect(fixture.map.selectedMarker == nil && fixture.map.infoWindow == nil)
    let n = try fixture.marker("n", at: Places.sydney, title: "N")
    fixture.map.selectedMarker = n
    fixture.map.clear()
    #expect(fixture.delegate.calls.last == "did_close_info_window(n)")
  }

  @Test("R13: Selection changes during resolution are deferred") func selectionChangesDuringResolutionAreDeferred()
    throws
  {
    // R13: changing the selection or removing a marker inside marker_info_window is deferred
    // until the resolution finishes, then applied in order; the trace says so.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let a = try fixture.marker("a", at: Places.sydney, title: "A")
    let b = try fixture.marker("b", at: Places.melbourne, title: "B")
    let c = try fixture.marker("c", at: Places.brisbane, title: "C")
    fixture.delegate.infoWindow = { [map = fixture.map] marker in  // not the fixture: it holds the delegate
      if marker === a {
        map.selectedMarker = b
        try? map.remove(c)
      }
      return nil
    }
    fixture.map.selectedMarker = a
    #expect(fixture.map.selectedMarker === b)
    #expect(c.map == nil)
    #expect(
      fixture.delegate.calls.prefix(4) == [
        "marker_info_window(a)", "marker_info_contents(a)", "did_close_info_window(a)", "marker_info_window(b)",
      ])
    let deferred = fixture.map.trace.records.filter { $0.event == .deferred }.compactMap(\.message)
    #expect(
      deferred == [
        "selected_marker = b waits until the info window is resolved (R13)",
        "remove marker c waits until the info window is resolved (R13)",
      ])
  }
}
