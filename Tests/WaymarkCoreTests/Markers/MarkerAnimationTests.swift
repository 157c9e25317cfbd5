import Testing
import WaymarkTesting

@testable import WaymarkCore

/// R46: a marker's position, rotation and opacity animate on the virtual clock, as the
/// animatable keys of Google's `GMSMarkerLayer` do.
@Suite struct MarkerAnimationTests {
  private func map() throws -> (MapView, Marker) {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    try map.settle()
    return (map, try map.addMarker(MarkerOptions(position: Places.sydney, id: "m")))
  }

  @Test("R46: half-way the opacity and rotation lie strictly between start and end; settled, exactly the target")
  func opacityAndRotationAnimate() throws {
    let (map, marker) = try map()
    var finished: Bool?
    try map.animate(
      marker, to: MarkerAnimationTarget(rotation: 90, opacity: 0.2), duration: 1, completion: { finished = $0 })
    try map.advance(by: 0.5)
    #expect(marker.opacity > 0.2 && marker.opacity < 1)
    #expect(marker.rotation > 0 && marker.rotation < 90)
    #expect(marker.position == Places.sydney, "the position is not animated")
    try map.settle()
    #expect(marker.opacity == 0.2)
    #expect(marker.rotation == 90)
    #expect(finished == true)
  }

  @Test("R46: the rotation takes the short way round: 350 to 10 passes 0, not 180")
  func rotationTakesTheShortWay() throws {
    let (map, marker) = try map()
    try marker.update { $0.rotation = 350 }
    try map.animate(marker, to: MarkerAnimationTarget(rotation: 10), duration: 1)
    var seen: [Double] = []
    for _ in 0..<9 {
      try map.advance(by: 0.1)
      seen.append(marker.rotation)
    }
    #expect(seen.allSatisfy { $0 >= 350 || $0 <= 10 }, "\(seen)")
    #expect(seen.contains { $0 < 10 } && seen.contains { $0 > 350 })
    try map.settle()
    #expect(marker.rotation == 10)
    #expect(MarkerAnimation.shortestTurn(from: 10, to: 350) == -20)
  }

  @Test("R46, R27: marker frames and camera frames fall on the same virtual times")
  func markerAndCameraFramesShareTheClock() throws {
    let (map, marker) = try map()
    final class Times: MapObserver {
      var camera: [Double] = []
      var marker: [Double] = []
      let clock: VirtualClock
      init(_ clock: VirtualClock) { self.clock = clock }
      func mapView(_ mapView: MapView, didChange change: MapChange) {
        switch change {
        case .cameraMoved: camera.append(clock.now)
        case .markerChanged: marker.append(clock.now)
        default: break
        }
      }
    }
    let times = Times(map.clock)
    map.addObserver(times)
    try map.animate(.zoomTo(12), duration: 0.5)
    try map.animate(marker, to: MarkerAnimationTarget(opacity: 0.5), duration: 0.5)
    try map.settle()
    #expect(times.marker.count > 10)
    #expect(times.marker == times.camera)
  }

  @Test("R46: a value out of its domain starts nothing and names the field")
  func badValuesStartNothing() throws {
    let (map, marker) = try map()
    #expect(throws: MapError.invalidValue(field: "animateMarker.opacity", value: "1.5", reason: "is outside 0...1")) {
      try map.animate(marker, to: MarkerAnimationTarget(rotation: 90, opacity: 1.5), duration: 1)
    }
    #expect(throws: MapError.self) {
      try map.animate(marker, to: MarkerAnimationTarget(rotation: .infinity), duration: 1)
    }
    #expect(map.isSettled, "no animation was started")
    try map.advance(by: 1)
    #expect(marker.rotation == 0 && marker.opacity == 1)
  }

  @Test("S3, R46: the position form still moves the marker alone, and a new animation replaces the running one")
  func thePositionFormIsUnchanged() throws {
    let (map, marker) = try map()
    var first: Bool?
    try map.animate(marker, to: Places.melbourne, duration: 1, completion: { first = $0 })
    try map.advance(by: 0.5)
    try map.animate(marker, to: MarkerAnimationTarget(opacity: 0), duration: 1)
    #expect(first == false)
    let stopped = marker.position
    try map.settle()
    #expect(marker.position == stopped)
    #expect(marker.opacity == 0)
  }
}
