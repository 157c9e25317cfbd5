import WaymarkCore

/// The land of Natural Earth's 1:110m countries (public domain; `README.md` beside this file),
/// decoded once into world rings.
enum NaturalEarthLand {
  /// Every land ring, closed, in world coordinates.
  static let rings: [WorldShape] = decode(encodedRings)

  /// Decodes rings written by `make_land_data.py`: encoded polylines (latitude first, in
  /// hundredths of a degree) separated by commas; line breaks are ignored.
  static func decode(_ text: String) -> [WorldShape] {
    var rings: [WorldShape] = []
    var coordinates: [Coordinate] = []
    var values: [Int] = []
    var value = 0, shift = 0
    func finishRing() {
      if coordinates.count >= 3 { rings.append(WorldShape(coordinates, closed: true)) }
      coordinates.removeAll(keepingCapacity: true)
      values.removeAll(keepingCapacity: true)
    }
    var latitude = 0, longitude = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "\n") { continue }
      if byte == UInt8(ascii: ",") {
        finishRing()
        latitude = 0
        longitude = 0
        continue
      }
      let chunk = Int(byte) - 63
      value |= (chunk & 0x1F) << shift
      shift += 5
      guard chunk < 0x20 else { continue }
      values.append(value & 1 != 0 ? ~(value >> 1) : value >> 1)
      value = 0
      shift = 0
      if values.count == 2 {
        latitude += values[0]
        longitude += values[1]
        coordinates.append(Coordinate(latitude: Double(latitude) / 100, longitude: Double(longitude) / 100))
        values.removeAll(keepingCapacity: true)
      }
    }
    finishRing()
    return rings
  }
}
