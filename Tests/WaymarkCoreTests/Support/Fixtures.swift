import Foundation
import Testing
import WaymarkCore

/// The sample coordinates of the map semantics (section 9).
enum Places {
  static let sydney = Coordinate(latitude: -33.8683, longitude: 151.2086)
  static let melbourne = Coordinate(latitude: -37.81969, longitude: 144.966085)
  static let brisbane = Coordinate(latitude: -27.4710107, longitude: 153.0234489)
}

/// A map with a recording delegate attached (kept alive by the fixture).
struct MapFixture {
  let map: MapView
  let delegate = RecordingDelegate()

  init(
    _ target: Coordinate = Places.melbourne, zoom: Double = 4, bearing: Double = 0, tilt: Double = 0,
    policy: BehaviorPolicy = .ios
  ) throws {
    map = try MapView(camera: CameraPosition(target: target, zoom: zoom, bearing: bearing, tilt: tilt), policy: policy)
    map.delegate = delegate
  }

  @discardableResult
  func marker(_ id: String, at position: Coordinate, title: String? = nil, snippet: String? = nil) throws -> Marker {
    try map.addMarker(MarkerOptions(position: position, id: id, title: title, snippet: snippet))
  }

  /// Settles and forgets what was recorded so far (initial tiles).
  func quiet() throws {
    try map.settle()
    delegate.calls.removeAll()
  }
}

/// A simple custom content: one text line.
func text(_ string: String) -> InfoWindowContent {
  InfoWindowContent(.text(TextNode(string)))
}

func expectClose(
  _ a: Double, _ b: Double, tolerance: Double = 1e-6, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    abs(a - b) <= tolerance, "\(a) is not within \(tolerance) of \(b) \(comment?.description ?? "")",
    sourceLocation: sourceLocation)
}

func expectClose(
  _ a: Coordinate, _ b: Coordinate, tolerance: Double = 1e-6, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    abs(a.latitude - b.latitude) <= tolerance && abs(Coordinate.wrapLongitude(a.longitude - b.longitude)) <= tolerance,
    "\(a) is not within \(tolerance) of \(b)", sourceLocation: sourceLocation)
}

/// A deterministic random number generator (SplitMix64) for property tests.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
