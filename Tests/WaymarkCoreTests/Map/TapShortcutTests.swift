import Testing

@testable import WaymarkCore
import WaymarkTesting

/// The tap path's shortcuts: the map-membership check of markers at their defaults
/// (``Marker/isOn(_:)``). Each must answer what the long way answers.
@Suite struct TapShortcutTests {
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
}
