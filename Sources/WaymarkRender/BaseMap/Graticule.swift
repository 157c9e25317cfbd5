import WaymarkCore

/// The lines of latitude and longitude drawn over the base map, spaced for the zoom so that
/// neighbouring lines are about 100 points apart at the camera's target.
enum Graticule {
  /// The spacings in degrees, coarsest first: 30, 10, 5, 2, 1, 0.5, 0.2, 0.1, ... 1e-8.
  static let steps: [Double] =
    [30, 10]
    + (0...8).flatMap { exponent -> [Double] in
      var scale = 1.0
      for _ in 0..<exponent { scale /= 10 }
      return [5 * scale, 2 * scale, 1 * scale]
    }

  /// The spacing at `zoom`: the finest step whose lines are at least 96 points apart.
  static func step(zoom: Double) -> Double {
    let pointsPerDegree = Mercator.worldSize(zoom: zoom) / 360
    return steps.last { $0 * pointsPerDegree >= 96 } ?? steps[0]
  }

  /// The most lines of each direction drawn (a view tilted towards the horizon sees far).
  static let maximumLines = 120

  /// A line of the graticule: its shape, and its label ("30°S", "151.2°E").
  struct Line {
    /// The line, straight in world coordinates (and so on the screen).
    let shape: WorldShape
    /// What it marks.
    let label: String
    /// True for a meridian (a line of longitude).
    let isMeridian: Bool
  }

  /// The meridians and parallels the projector's view may see.
  static func lines(for projector: ShapeProjector) -> [Line] {
    let step = Graticule.step(zoom: projector.projection.camera.zoom)
    let visible = projector.visible
    let top = max(visible.minY, 0), bottom = min(visible.maxY, 1)
    guard top < bottom else { return [] }
    var lines: [Line] = []
    let west = ((visible.minX - 0.5) * 360 / step).rounded(.up)
    let east = ((visible.maxX - 0.5) * 360 / step).rounded(.down)
    if west <= east, east - west < Double(maximumLines) {
      for index in stride(from: west, through: east, by: 1) {
        let longitude = index * step
        let x = longitude / 360 + 0.5
        let shape = WorldShape([WorldPoint(x: x, y: top), WorldPoint(x: x, y: bottom)], closed: false)
        lines.append(Line(shape: shape, label: label(Coordinate.wrapLongitude(longitude), "E", "W"), isMeridian: true))
      }
    }
    let north = Mercator.coordinate(WorldPoint(x: 0.5, y: top)).latitude
    let south = Mercator.coordinate(WorldPoint(x: 0.5, y: bottom)).latitude
    let first = (south / step).rounded(.up), last = (north / step).rounded(.down)
    if first <= last, last - first < Double(maximumLines) {
      for index in stride(from: first, through: last, by: 1) {
        let latitude = index * step
        guard abs(latitude) < Mercator.maxLatitude else { continue }
        let y = Mercator.worldPoint(Coordinate(latitude: latitude, longitude: 0)).y
        let shape = WorldShape(
          [WorldPoint(x: visible.minX, y: y), WorldPoint(x: visible.maxX, y: y)], closed: false)
        lines.append(Line(shape: shape, label: label(latitude, "N", "S"), isMeridian: false))
      }
    }
    return lines
  }

  /// "37.8°S", "0°", "151°E".
  static func label(_ degrees: Double, _ positive: String, _ negative: String) -> String {
    let text = formatNumber(abs(degrees), decimals: 8) + "°"
    if abs(degrees) < 1e-9 || abs(abs(degrees) - 180) < 1e-9 { return formatNumber(abs(degrees).rounded()) + "°" }
    return text + (degrees > 0 ? positive : negative)
  }
}
