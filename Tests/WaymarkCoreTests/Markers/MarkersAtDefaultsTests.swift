import Testing

@testable import WaymarkCore
import WaymarkTesting

/// Markers at their defaults store neither serial nor slot (the map's store finds them in
/// the spatial index), and a tap tests most candidates by the cell the index keeps: these
/// tests hold both to what a marker that stores everything, and a scan of every marker,
/// would answer.
@Suite struct MarkersAtDefaultsTests {
  private func coordinate(_ rng: inout SplitMix64, near center: Coordinate, spread: Double) -> Coordinate {
    let longitude = center.longitude + .random(in: -spread...spread, using: &rng)
    return Coordinate(
      latitude: min(max(center.latitude + .random(in: -spread...spread, using: &rng), -80), 80),
      longitude: longitude > 180 ? longitude - 360 : longitude)
  }

  @Test("R2: a marker at its defaults keeps its id when it leaves the map, and when the map goes away")
  func idsOutliveTheMap() throws {
    var map: MapView? = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    let kept = try (0..<50).map { try map!.addMarker(MarkerOptions(position: Places.sydney, title: "m\($0)")) }
    #expect(kept.allSatisfy { $0.isAtDefaults })
    #expect(kept.map(\.id) == (1...50).map { "marker-\($0)" })
    try map!.remove(kept[3])
    #expect(kept[3].id == "marker-4" && kept[3].map == nil)
    weak var gone = map
    map = nil
    #expect(gone == nil)
    #expect(kept.map(\.id) == (1...50).map { "marker-\($0)" }, "serials survive the map")
    #expect(kept.allSatisfy { $0.map == nil })
    let other = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    try other.add(kept[7])
    #expect(other.marker(id: "marker-8") === kept[7] && other.checkInvariants() == nil)
  }

  @Test("S3: animated markers at their defaults step and finish in the order they were added, and stay findable")
  func animatedMarkersKeepTheirOrder() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    let markers = try (0..<6).map { i in
      try map.addMarker(
        MarkerOptions(position: Coordinate(latitude: -33.92 + Double(i) * 0.02, longitude: 151.2), title: "m\(i)"))
    }
    var finished: [String] = []
    for marker in markers.reversed() {
      let target = Coordinate(latitude: marker.position.latitude, longitude: 151.21)
      try map.animate(marker, to: target, duration: 1) { done in if done { finished.append(marker.id) } }
      // Its serial and slot are stored now: each frame moves it without a lookup.
      #expect(!marker.isAtDefaults)
    }
    try map.settle()
    #expect(finished == markers.map(\.id))
    #expect(markers.map(\.id) == (1...6).map { "marker-\($0)" })
    #expect(map.checkInvariants() == nil)
    for marker in markers {
      #expect(marker.position.longitude == 151.21)
      let point = try #require(map.projection.point(for: marker.position))
      #expect(map.topmostMarker(at: Point(x: point.x, y: point.y - 20)) === marker)
    }
  }

  @Test("Markers at their defaults that move, animate, change and leave keep every invariant")
  func sharedMarkersUnderRandomChanges() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 11))
    var rng = SplitMix64(seed: 0x5348_4152)
    var live: [(marker: Marker, id: String)] = []
    for step in 0..<2_000 {
      switch rng.next() % 8 {
      case 0 where !live.isEmpty:
        let (marker, id) = live.remove(at: Int(rng.next() % UInt64(live.count)))
        try map.remove(marker)
        #expect(marker.id == id)
      case 1 where !live.isEmpty:
        let marker = live[Int(rng.next() % UInt64(live.count))].marker
        let to = coordinate(&rng, near: Places.sydney, spread: 0.1)
        try marker.update { $0.position = to }  // stays at its defaults
      case 2 where !live.isEmpty:
        let marker = live[Int(rng.next() % UInt64(live.count))].marker
        try map.animate(marker, to: coordinate(&rng, near: Places.sydney, spread: 0.1), duration: 0.2)
      case 3 where !live.isEmpty:
        let marker = live[Int(rng.next() % UInt64(live.count))].marker
        try marker.update { $0.snippet = "away from the defaults" }
      case 4 where step % 5 == 0:
        try map.advance(by: 0.05)
      default:
        // Some markers share one spot exactly: the store tells them apart by identity.
        let position =
          rng.next() % 4 == 0 ? Places.sydney : coordinate(&rng, near: Places.sydney, spread: 0.1)
        let marker = try map.addMarker(MarkerOptions(position: position, title: "t\(step)"))
        live.append((marker, marker.id))
      }
      if step % 100 == 0 {
        #expect(map.checkInvariants() == nil, "step \(step)")
        #expect(live.allSatisfy { map.marker(id: $0.id) === $0.marker })
      }
    }
    try map.settle()
    #expect(map.checkInvariants() == nil)
    #expect(map.markers.map(\.id) == live.map(\.id))
    #expect(live.contains { $0.marker.isAtDefaults }, "some markers stayed at their defaults")
  }

  @Test("R4: the topmost marker is a scan's answer, at every bearing, tilt and zoom, on the icons' edges too")
  func topmostMatchesAScan() throws {
    var rng = SplitMix64(seed: 0x544F_504D)
    for round in 0..<12 {
      let zoom = [0.5, 3, 9, 14, 21][round % 5]
      let center = Coordinate(latitude: .random(in: -60...60, using: &rng), longitude: round == 3 ? 179.99 : 151)
      let camera = CameraPosition(
        target: center, zoom: zoom, bearing: .random(in: 0..<360, using: &rng),
        tilt: round % 3 == 0 ? .random(in: 0...60, using: &rng) : 0)
      let map = try MapView(camera: camera)
      let spread = min(200 / Mercator.worldSize(zoom: zoom) * 360, 20)
      var markers: [Marker] = []
      for _ in 0..<400 {
        markers.append(try map.addMarker(MarkerOptions(position: coordinate(&rng, near: center, spread: spread))))
      }
      if round % 4 == 1 {  // one marker with a z-index: the order is no longer the slots'
        try markers[17].update { $0.zIndex = 2 }
      }
      let projection = map.projection
      func scan(_ point: Point) -> Marker? {
        var best: Marker?
        for marker in markers {
          guard let anchor = projection.point(for: marker.position),
            MarkerGeometry.contains(point, marker: marker, at: anchor, bearing: 0)
          else { continue }
          if let current = best, marker.zIndex < current.zIndex { continue }
          best = marker
        }
        return best
      }
      var points = (0..<300).map { _ in
        Point(x: .random(in: 0...390, using: &rng), y: .random(in: 0...844, using: &rng))
      }
      // Exactly on an icon's corners and edges, and a hair outside them.
      for marker in markers.prefix(60) {
        guard let anchor = projection.point(for: marker.position) else { continue }
        for (dx, dy) in [(-13.5, 0.0), (13.5, -43), (0, -43), (13.5, 0)] {
          points.append(Point(x: anchor.x + dx, y: anchor.y + dy))
          points.append(Point(x: (anchor.x + dx).nextUp, y: (anchor.y + dy).nextDown))
        }
      }
      for point in points {
        #expect(map.topmostMarker(at: point) === scan(point), "round \(round) at \(point)")
      }
    }
  }
}
