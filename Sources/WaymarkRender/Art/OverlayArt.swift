import Foundation
import WaymarkCore

/// An overlay ready to draw (R15): its outline as world shapes and its paint. Circles are
/// drawn as the ring of points `radius` meters from the centre on the sphere, which is the
/// edge hit-testing uses; ground overlays as a labelled box over their bounds. The SVG
/// snapshot and the replay page draw the same.
struct OverlayArt {
  /// The overlay's id.
  let id: String
  /// polyline, polygon, circle or ground_overlay.
  let kind: String
  /// The outline: a polyline's path, a polygon's outer ring then its holes, a circle's ring,
  /// a ground overlay's box; each taken the short way around the world.
  let shapes: [WorldShape]
  /// The paint, as SVG attributes (` fill=".." stroke=".."`).
  let paint: String
  /// The image's name, for a ground overlay.
  let label: String?

  /// Points on a circle's ring.
  static let circleSegments = 72

  /// The drawing of `overlay`.
  init(_ overlay: Overlay) {
    id = overlay.id
    kind = overlay.shape.kind
    let options = overlay.options
    let blue = ContentColor(red: 0x1A, green: 0x73, blue: 0xE8)
    let stroke = Palette.color(options.strokeColor, or: blue)
    var paint = SVGBuffer(capacity: 128)
    switch overlay.shape {
    case .polyline(let path, let width):
      shapes = [WorldShape(path, closed: false)]
      paint.raw(" fill=\"none\"")
      paint.attribute("stroke", Palette.hex(stroke))
      paint.attribute("stroke-width", max(width, 0.5))
      paint.raw(" stroke-linecap=\"round\" stroke-linejoin=\"round\"")
      label = nil
    case .polygon(let outer, let holes):
      var rings = [WorldShape(outer, closed: true)]
      for hole in holes where hole.count >= 3 {
        rings.append(Self.aligned(WorldShape(hole, closed: true), to: rings[0]))
      }
      shapes = rings
      Self.appendArea(
        fill: Palette.color(options.fillColor, or: blue.withAlpha(64)), stroke: stroke, width: options.strokeWidth,
        to: &paint)
      label = nil
    case .circle(let center, let radius):
      shapes = [WorldShape(Self.ring(around: center, radius: radius), closed: true)]
      Self.appendArea(
        fill: Palette.color(options.fillColor, or: blue.withAlpha(40)), stroke: stroke, width: options.strokeWidth,
        to: &paint)
      label = nil
    case .groundOverlay(let bounds, let image):
      let northEast = Mercator.worldPoint(bounds.northEast!), southWest = Mercator.worldPoint(bounds.southWest!)
      let east = northEast.x < southWest.x ? northEast.x + 1 : northEast.x
      shapes = [
        WorldShape(
          [
            WorldPoint(x: southWest.x, y: northEast.y), WorldPoint(x: east, y: northEast.y),
            WorldPoint(x: east, y: southWest.y), WorldPoint(x: southWest.x, y: southWest.y),
          ], closed: true)
      ]
      let fill = Palette.color(options.fillColor, or: ContentColor(red: 255, green: 255, blue: 255, alpha: 150))
      Palette.appendFill(fill, to: &paint)
      paint.attribute("stroke", Palette.secondaryText)
      paint.raw(" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"")
      label = image
    }
    self.paint = paint.text
  }

  /// The paint of a polygon or circle: its fill, and its outline `width` points wide (1.5
  /// when nil; none at 0, as `GMSPolygon.strokeWidth` 0 draws no outline).
  private static func appendArea(fill: ContentColor, stroke: ContentColor, width: Double?, to paint: inout SVGBuffer) {
    Palette.appendFill(fill, to: &paint)
    paint.raw(" fill-rule=\"evenodd\"")
    if let width {
      paint.attribute("stroke", width > 0 ? Palette.hex(stroke) : "none")
      paint.attribute("stroke-width", width)
      paint.raw(" stroke-linejoin=\"round\"")
      return
    }
    paint.attribute("stroke", Palette.hex(stroke))
    paint.raw(" stroke-width=\"1.5\" stroke-linejoin=\"round\"")
  }

  /// `shape` moved by whole worlds so its first point is nearest `reference`'s.
  private static func aligned(_ shape: WorldShape, to reference: WorldShape) -> WorldShape {
    guard let first = shape.points.first, let anchor = reference.points.first else { return shape }
    let offset = (anchor.x - first.x).rounded()
    guard offset != 0 else { return shape }
    return WorldShape(shape.points.map { WorldPoint(x: $0.x + offset, y: $0.y) }, closed: shape.closed)
  }

  /// The points `radius` meters from `center` on the sphere, every 5 degrees of heading.
  static func ring(around center: Coordinate, radius: Double) -> [Coordinate] {
    let angular = radius / Mercator.earthRadius
    let φ1 = center.latitude * .pi / 180, λ1 = center.longitude * .pi / 180
    return (0..<circleSegments).map { index in
      let θ = Double(index) * 2 * .pi / Double(circleSegments)
      let φ2 = asin(min(1, max(-1, sin(φ1) * cos(angular) + cos(φ1) * sin(angular) * cos(θ))))
      let λ2 = λ1 + atan2(sin(θ) * sin(angular) * cos(φ1), cos(angular) - sin(φ1) * sin(φ2))
      return Coordinate(latitude: φ2 * 180 / .pi, longitude: Coordinate.wrapLongitude(λ2 * 180 / .pi))
    }
  }
}

extension ContentColor {
  /// The same colour with another opacity.
  func withAlpha(_ alpha: UInt8) -> ContentColor {
    ContentColor(red: red, green: green, blue: blue, alpha: alpha)
  }
}
