import Testing
import WaymarkCore
import WaymarkTesting

/// R7: an open default window keeps what it was shown with unless its marker tracks info
/// window changes; blank texts count as none.
@Suite struct InfoWindowTrackingTests {
  /// The texts of the shown default window, in order.
  private func texts(_ map: MapView) -> [String] {
    guard let window = map.infoWindow else { return [] }
    return InfoWindowTrackingTests.texts(of: window.layout.content)
  }

  private static func texts(of node: LaidOutNode) -> [String] {
    if case .text(let text) = node.element { return [text.lines.map(\.text).joined(separator: " ")] }
    return node.children.flatMap(texts(of:))
  }

  @Test("R7: Without tracking an open window keeps its content and frame until shown again")
  func withoutTrackingAnOpenWindowKeepsItsContentAndFrame() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let m = try fixture.marker("m", at: Places.sydney, title: "Short", snippet: "One")
    fixture.map.selectedMarker = m
    let before = try #require(fixture.map.infoWindow)
    try m.update { $0.title = "A much longer title than before" }
    #expect(fixture.map.infoWindow?.layout == before.layout)
    #expect(texts(fixture.map) == ["Short", "One"])
    try m.update {
      $0.title = nil
      $0.snippet = nil
    }
    #expect(fixture.map.infoWindow?.layout == before.layout, "a blank marker does not close a frozen window")
    #expect(!fixture.map.trace.records.contains { $0.event == .infoWindowHidden })
    try m.update { $0.title = "Shown again" }
    fixture.map.selectedMarker = nil
    fixture.map.selectedMarker = m
    #expect(texts(fixture.map) == ["Shown again"])
  }

  @Test("R7: With tracking a title or snippet change shows at once")
  func withTrackingAChangeShowsAtOnce() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let m = try fixture.marker("m", at: Places.sydney, title: "Short")
    try m.update { $0.tracksInfoWindowChanges = true }
    fixture.map.selectedMarker = m
    let before = try #require(fixture.map.infoWindow?.layout.size.width)
    try m.update { $0.title = "A much longer title than before" }
    let after = try #require(fixture.map.infoWindow?.layout.size.width)
    #expect(after > before)
    try m.update { $0.snippet = "Now a snippet too" }
    #expect(texts(fixture.map) == ["A much longer title than before", "Now a snippet too"])
  }

  @Test("R7, R8: With tracking a window that becomes blank closes and the marker stays selected")
  func withTrackingABlankWindowClosesAndTheMarkerStaysSelected() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let m = try fixture.marker("m", at: Places.sydney, title: "Title", snippet: "Snippet")
    try m.update { $0.tracksInfoWindowChanges = true }
    fixture.map.selectedMarker = m
    try fixture.quiet()
    try m.update {
      $0.title = " "
      $0.snippet = nil
    }
    #expect(fixture.map.infoWindow == nil)
    #expect(fixture.map.selectedMarker === m)
    #expect(fixture.delegate.calls == ["did_close_info_window(m)"])
  }

  @Test("R7: Blank means blank: white space only gives no default window")
  func whiteSpaceOnlyGivesNoDefaultWindow() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let blank = try fixture.marker("blank", at: Places.sydney, title: "  \t", snippet: "\n\u{3000}")
    try fixture.map.tap(blank)
    #expect(fixture.map.selectedMarker === blank)
    #expect(fixture.map.infoWindow == nil)
    let half = try fixture.marker("half", at: Places.melbourne, title: "   ", snippet: "Only this")
    fixture.map.selectedMarker = half
    #expect(texts(fixture.map) == ["Only this"], "a blank title takes no line")
  }

  @Test("R7, R9: A window taken from the map stays what it was shown with")
  func aWindowTakenFromTheMapStaysWhatItWasShownWith() throws {
    // Copies of a window share its parts: showing another window, hiding it, or the marker's
    // new title change none of them; the next tap shows the new title.
    let fixture = try MapFixture(Places.sydney, zoom: 5)
    let a = try fixture.marker("a", at: Places.sydney, title: "First title")
    let b = try fixture.marker("b", at: Places.melbourne, title: "Other", snippet: "Snippet")
    try fixture.map.tap(a)
    let first = try #require(fixture.map.infoWindow)
    try a.update { $0.title = "Second title" }
    try fixture.map.tap(b)
    #expect(texts(fixture.map) == ["Other", "Snippet"])
    #expect(first.marker === a && first.kind == .default && first.content == nil)
    #expect(Self.texts(of: first.layout.content) == ["First title"])
    fixture.map.selectedMarker = nil
    #expect(fixture.map.infoWindow == nil)
    #expect(Self.texts(of: first.layout.content) == ["First title"])
    try fixture.map.tap(a)
    #expect(fixture.map.infoWindow?.marker === a)
    #expect(texts(fixture.map) == ["Second title"])
    #expect(Self.texts(of: first.layout.content) == ["First title"])
  }
}
