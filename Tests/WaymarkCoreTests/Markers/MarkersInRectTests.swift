import Foundation
import Testing
@testable import WaymarkCore
import WaymarkTesting

/// `markers(in:)`: what a renderer draws, in the order it draws it, through the spatial index.
@Suite struct MarkersInRectTests {
  /// A deterministic scatter of markers of every shape around Sydney.
  func scatteredMap(bearing: Double, tilt: Double) throws -> MapView {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12, bearing: bearing, tilt: tilt))
    var seed: UInt64 = 42
    func unit() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) * 0x1p-53
    }
    for index in 0..<600 {
      var options = MarkerOptions(
        position: Coordinate(latitude: -33.8683 + (unit() - 0.5) * 0.2, longitude: 151.2086 + (unit() - 0.5) * 0.3))
      if index % 3 == 0 {
        options.icon = .image(name: "sq", size: Size(width: 10 + 60 * unit(), height: 8 + 30 * unit()))
      }
      options.rotation = index % 4 == 0 ? 360 * unit() : 0
      options.flat = index % 5 == 0
      options.zIndex = Int32(index % 7 == 0 ? 1 : 0)
      options.groundAnchor = Point(x: unit(), y: unit())
      try map.addMarker(options)
    }
    return map
  }

  @Test(arguments: [(0.0, 0.0), (40.0, 30.0), (300.0, 0.0)])
  func theIndexFindsWhatAScanFindsInDrawOrder(bearing: Double, tilt: Double) throws {
    let map = try scatteredMap(bearing: bearing, tilt: tilt)
    let view = Rect(x: 0, y: 0, width: 390, height: 844)
    let found = map.markers(in: view)
    let all = map.markers
    let scanned = all.filter { marker in
      guard let anchor = map.screenPoint(of: marker) else { return false }
      let corners = [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 1)].map { unit in
        iconPoint(unit, marker, anchor, map)
      }
      return corners.map(\.x).max()! >= 0 && corners.map(\.x).min()! <= 390 && corners.map(\.y).max()! >= 0
        && corners.map(\.y).min()! <= 844
    }
    #expect(found.count > 50 && found.count < all.count, "the view holds some of the markers")
    #expect(Set(found.map(ObjectIdentifier.init)) == Set(scanned.map(ObjectIdentifier.init)))
    let order = Dictionary(uniqueKeysWithValues: all.enumerated().map { (ObjectIdentifier($0.element), $0.offset) })
    let keys = found.map { ($0.zIndex, order[ObjectIdentifier($0)]!) }
    #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "lowest z first, then order of addition")
  }

  @Test("R4: The last marker drawn at a point is the one a tap hits") func theLastMarkerDrawnAtAPointIsTheOneATapHits()
    throws
  {
    // R4: drawing order and tap order agree.
    let map = try scatteredMap(bearing: 20, tilt: 25)
    for x in stride(from: 5.0, to: 390, by: 37) {
      for y in stride(from: 5.0, to: 844, by: 41) {
        let point = Point(x: x, y: y)
        let drawnOnTop = map.markers(in: Rect(x: x, y: y, width: 0, height: 0)).last { marker in
          map.markers(at: point).contains { $0 === marker }
        }
        #expect(drawnOnTop === map.topmostMarker(at: point), "at \(point)")
      }
    }
  }

  /// The screen point of a unit point of the icon, from the hit-testing rules (R4) written out.
  func iconPoint(_ unit: Point, _ marker: Marker, _ anchor: Point, _ map: MapView) -> Point {
    let angle = (marker.flat ? marker.rotation - map.camera.bearing : marker.rotation) * .pi / 180
    let dx = (unit.x - marker.groundAnchor.x) * marker.iconSize.width
    let dy = (unit.y - marker.groundAnchor.y) * marker.iconSize.height
    return Point(x: anchor.x + dx * cos(angle) - dy * sin(angle), y: anchor.y + dx * sin(angle) + dy * cos(angle))
  }
}
