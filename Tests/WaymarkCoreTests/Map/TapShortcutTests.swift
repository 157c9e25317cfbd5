import Testing

@testable import WaymarkCore
import WaymarkTesting

/// The tap path's shortcuts: the default window made in the storage of the hidden one
/// (``InfoWindow/defaultWindow(of:reusing:)``), the map-membership check of markers at
/// their defaults (``Marker/isOn(_:)``) and the remembered world point
/// (``WorldPointMemo``). Each must answer what the long way answers.
@Suite struct TapShortcutTests {
  /// Titles and snippets of every kind: absent, blank, the one-line ASCII case, two lines,
  /// non-ASCII, too long for a line.
  private static let texts: [String?] = [
    nil, "", "  ", "Marker 42", "Marker 123456", "Café", "東京タワー", "two\nlines",
    "a title long enough to wrap over more than one line of the default window for sure", "x",
  ]

  /// The texts of the window's nodes, in order.
  private static func texts(of node: LaidOutNode) -> [String] {
    if case .text(let text) = node.element { return text.lines.map(\.text) }
    return node.children.flatMap(texts(of:))
  }

  @Test("R7: a window made in the hidden one's storage is the fresh window, and windows held elsewhere never change")
  func reusedWindowsMatchFreshOnesAndHeldWindowsKeepTheirState() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 3)
    let map = fixture.map
    var rng = SplitMix64(seed: 0x5245_5553)
    var markers: [Marker] = []
    for index in 0..<40 {
      let position = Coordinate(latitude: rng.uniform(-40, -10), longitude: rng.uniform(115, 155))
      let title = Self.texts[Int(rng.next() % UInt64(Self.texts.count))]
      let snippet = rng.next() % 3 == 0 ? Self.texts[Int(rng.next() % UInt64(Self.texts.count))] : nil
      // Half at their defaults (shared extras), half with an id of their own.
      let id = index % 2 == 0 ? nil : "own-\(index)"
      markers.append(try map.addMarker(MarkerOptions(position: position, id: id, title: title, snippet: snippet)))
    }
    var held: [(window: InfoWindow, marker: Marker, layout: InfoWindowLayout)] = []
    var reusedSome = false
    for _ in 0..<600 {
      let marker = markers[Int(rng.next() % UInt64(markers.count))]
      let hadSpare = map.selection.spareWindow != nil
      switch rng.next() % 4 {
      case 0: map.selectedMarker = nil
      case 1: map.selectedMarker = marker
      default: try map.tap(marker)
      }
      if let spare = map.selection.spareWindow {
        #expect(spare.marker == nil && spare.pointOfInterest == nil && spare.content == nil, "a spare holds no marker")
      }
      if let window = map.infoWindow {
        let selected = try #require(map.selectedMarker)
        #expect(window.marker === selected && window.content == nil && window.pointOfInterest == nil)
        let fresh = try #require(InfoWindowLayout.defaultWindow(title: selected.title, snippet: selected.snippet))
        #expect(window.layout == fresh, "the window of \(selected.id) is laid out as a fresh one")
        #expect(
          Self.texts(of: window.layout.content) == Self.texts(of: fresh.content))
        if hadSpare && map.selection.spareWindow == nil { reusedSome = true }
        if rng.next() % 5 == 0 { held.append((window, selected, window.layout)) }
      } else if let selected = map.selectedMarker {
        #expect(InfoWindowLayout.defaultWindow(title: selected.title, snippet: selected.snippet) == nil)
      }
      for entry in held {
        #expect(
          entry.window.marker === entry.marker && entry.window.layout == entry.layout, "a held window never changes")
      }
      #expect(map.checkInvariants() == nil)
    }
    #expect(reusedSome, "some windows were made in a spare's storage")
    #expect(held.count > 20)
  }

  @Test("R2: a hidden window's marker is let go: the spare keeps no removed marker alive")
  func theSpareKeepsNoMarkerAlive() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    weak var gone: Marker?
    do {
      let marker = try map.addMarker(MarkerOptions(position: Places.sydney, title: "Marker 1"))
      gone = marker
      try map.tap(marker)
      #expect(map.infoWindow?.marker === marker)
      try map.remove(marker)
    }
    #expect(map.infoWindow == nil && map.selection.spareWindow != nil)
    #expect(gone == nil, "the removed marker is deallocated")
    let next = try map.addMarker(MarkerOptions(position: Places.melbourne, title: "Marker 2"))
    map.selectedMarker = next
    #expect(map.selection.spareWindow == nil, "the next default window took the spare")
    #expect(map.infoWindow?.marker === next && Self.texts(of: map.infoWindow!.layout.content) == ["Marker 2"])
  }

  @Test("R2: isOn says what marker.map === map says, for markers at their defaults and not, on, off and across maps")
  func isOnMatchesTheWeakReference() throws {
    var first: MapView? = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    let second = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    let atDefaults = try (0..<6).map { try first!.addMarker(MarkerOptions(position: Places.sydney, title: "m\($0)")) }
    let own = try first!.addMarker(MarkerOptions(position: Places.sydney, id: "own"))
    let elsewhere = try second.addMarker(MarkerOptions(position: Places.sydney, title: "other"))
    func check(_ note: String) {
      for marker in atDefaults + [own, elsewhere] {
        for map in [first, second].compactMap({ $0 }) {
          #expect(marker.isOn(map) == (marker.map === map), "\(note): \(marker.id)")
        }
      }
    }
    check("added")
    #expect(atDefaults[0].isOn(first!) && !atDefaults[0].isOn(second) && elsewhere.isOn(second))
    try first!.remove(atDefaults[1])
    try atDefaults[2].update { $0.zIndex = 3 }
    try first!.remove(own)
    try second.add(own)
    try first!.remove(atDefaults[3])
    try second.add(atDefaults[3])
    check("removed, changed, moved between maps")
    #expect(!atDefaults[1].isOn(first!) && atDefaults[3].isOn(second) && !atDefaults[3].isOn(first!))
    first = nil
    check("the first map gone")
    #expect(!atDefaults[0].isOn(second))
  }

  @Test("The remembered world point has the bits of Mercator.worldPoint, hit or miss")
  func theMemoGivesMercatorsBits() {
    var memo = WorldPointMemo()
    var rng = SplitMix64(seed: 0x4D45_4D4F)
    var previous = Coordinate(latitude: 0, longitude: 0)
    let edges = [
      Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: -0.0, longitude: -0.0),
      Coordinate(latitude: 85, longitude: 180), Coordinate(latitude: -85, longitude: -180),
    ]
    for step in 0..<3_000 {
      let coordinate: Coordinate
      switch rng.next() % 3 {
      case 0: coordinate = previous
      case 1: coordinate = edges[step % edges.count]
      default: coordinate = Coordinate(latitude: rng.uniform(-85, 85), longitude: rng.uniform(-180, 180))
      }
      let remembered = memo.worldPoint(coordinate), exact = Mercator.worldPoint(coordinate)
      #expect(remembered.x.bitPattern == exact.x.bitPattern && remembered.y.bitPattern == exact.y.bitPattern)
      previous = coordinate
    }
  }
}
