import Foundation
import Testing
import WaymarkCore
@testable import WaymarkRender

/// Sample places (docs/semantics.md, section 9).
enum Places {
  static let sydney = Coordinate(latitude: -33.8683, longitude: 151.2086)
  static let melbourne = Coordinate(latitude: -37.81969, longitude: 144.966085)
  static let brisbane = Coordinate(latitude: -27.4710107, longitude: 153.0234489)
}

/// A delegate answering the content callbacks through closures.
final class ContentDelegate: MapViewDelegate {
  var window: ((Marker) -> InfoWindowContent?)?
  var contents: ((Marker) -> InfoWindowContent?)?
  func mapView(_ mapView: MapView, markerInfoWindow marker: Marker) -> InfoWindowContent? { window?(marker) }
  func mapView(_ mapView: MapView, markerInfoContents marker: Marker) -> InfoWindowContent? { contents?(marker) }
}

/// Renders `map` and parses the SVG.
func picture(of map: MapView, sourceLocation: SourceLocation = #_sourceLocation) throws -> SVGElement {
  try #require(SVGDocument.parse(SVGRenderer().svg(of: map), sourceLocation: sourceLocation))
}

/// A small deterministic generator, so every failure replays exactly.
struct SeededRandom {
  var state: UInt64
  mutating func unit() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) * 0x1p-53
  }
  mutating func double(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }
}

func expectClose(
  _ a: Double, _ b: Double, tolerance: Double = 1e-6, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(abs(a - b) <= tolerance, "\(a) vs \(b) \(comment?.description ?? "")", sourceLocation: sourceLocation)
}
