import WaymarkCore

/// Natural Earth's 1:110m populated places (public domain; `README.md` beside this file):
/// 243 major cities, most important first, labelled on the base map so that places are
/// recognisable.
enum NaturalEarthCities {
  /// A city: its name and where it is.
  struct City {
    /// The name, as Natural Earth spells it.
    let name: String
    /// Where it is, in world coordinates.
    let world: WorldPoint
    /// The name's length in Unicode scalars (what a label's width is estimated from).
    let length: Int
  }

  /// Every city, most important first.
  static let cities: [City] = encodedCities.split(separator: "\n").compactMap { line in
    let fields = line.split(separator: " ", maxSplits: 2)
    guard fields.count == 3, let latitude = Double(fields[0]), let longitude = Double(fields[1]) else { return nil }
    let name = String(fields[2])
    return City(
      name: name, world: Mercator.worldPoint(Coordinate(latitude: latitude, longitude: longitude)),
      length: name.unicodeScalars.count)
  }

  /// The most labels drawn on one picture.
  static let maximumLabels = 40

  /// The cities labelled in `projection`'s view: those whose point is in the view, most
  /// important first, each left out when its label would overlap one already placed.
  static func labels(in projection: Projection) -> [(city: City, point: Point)] {
    var placed: [(city: City, point: Point)] = []
    var boxes: [Rect] = []
    let size = projection.viewSize
    for city in cities {
      guard placed.count < maximumLabels, let point = projection.point(forWorld: city.world),
        point.x >= 0, point.x <= size.width, point.y >= 0, point.y <= size.height
      else { continue }
      let box = labelBox(city, at: point)
      guard
        !boxes.contains(where: { $0.minX < box.maxX && box.minX < $0.maxX && $0.minY < box.maxY && box.minY < $0.maxY })
      else { continue }
      boxes.append(box)
      placed.append((city, point))
    }
    return placed
  }

  /// The room a city's dot and label take: the dot, then the name to its right (about 6.2
  /// points a character at 11 points).
  static func labelBox(_ city: City, at point: Point) -> Rect {
    Rect(x: point.x - 4, y: point.y - 9, width: 10 + Double(city.length) * 6.2, height: 14)
  }
}
