// Deterministic inputs: markers spread over a continent by a seeded generator
// (WaymarkTesting.SplitMix64). No system randomness, so every run of every build sees the
// same markers, cameras and taps.

import WaymarkCore
import WaymarkTesting

/// Where the markers live: a continent-sized box (Australia) and the view of the map.
enum Continent {
  /// Latitudes of the box.
  static let latitudes = -39.0 ... -12.0
  /// Longitudes of the box.
  static let longitudes = 114.0...153.0
  /// The view size of every benchmark map (an iPhone's, in points).
  static let viewSize = Size(width: 390, height: 844)
  /// The zoom of the hit-testing views.
  static let zoom = 10.0

  /// `count` coordinates uniform in latitude and longitude over the box.
  static func coordinates(count: Int, seed: UInt64) -> [Coordinate] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in randomCoordinate(&rng, inset: 0) }
  }

  /// A coordinate in the box shrunk by `inset` degrees on every side.
  static func randomCoordinate(_ rng: inout SplitMix64, inset: Double) -> Coordinate {
    Coordinate(
      latitude: rng.uniform(latitudes.lowerBound + inset, latitudes.upperBound - inset),
      longitude: rng.uniform(longitudes.lowerBound + inset, longitudes.upperBound - inset))
  }

  /// A map over the middle of the continent with recording off (the trace would otherwise
  /// grow with every callback), no delegate.
  static func makeMap() throws -> MapView {
    let map = try MapView(
      camera: CameraPosition(target: Coordinate(latitude: -25, longitude: 133), zoom: zoom),
      viewSize: viewSize)
    map.trace.isEnabled = false
    return map
  }

  /// Adds one marker per coordinate, titled `Marker i` as in the issue.
  static func addMarkers(_ coordinates: ArraySlice<Coordinate>, to map: MapView) throws {
    for (index, coordinate) in zip(coordinates.indices, coordinates) {
      try map.addMarker(MarkerOptions(position: coordinate, title: "Marker \(index)"))
    }
  }
}
