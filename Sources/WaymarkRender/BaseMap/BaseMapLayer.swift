import WaymarkCore

/// The sea, the land and the graticule.
enum BaseMapLayer {
  static func append(_ projector: ShapeProjector, to buffer: inout SVGBuffer) {
    let clip = projector.clip
    buffer.raw("<rect class=\"sea\"")
    buffer.attribute("x", clip.minX)
    buffer.attribute("y", clip.minY)
    buffer.attribute("width", clip.width)
    buffer.attribute("height", clip.height)
    buffer.raw(" fill=\"\(Palette.sea)\"/>")
    buffer.raw("<path class=\"land\" d=\"")
    for ring in NaturalEarthLand.rings {
      for offset in projector.copies(of: ring) { projector.appendPath(ring, offset: offset, to: &buffer) }
    }
    buffer.raw("\" fill=\"\(Palette.land)\" fill-rule=\"evenodd\" stroke=\"\(Palette.border)\"")
    buffer.raw(" stroke-width=\"0.8\" stroke-linejoin=\"round\"/>")
    buffer.raw("<path class=\"graticule\" d=\"")
    for line in Graticule.lines(for: projector) { projector.appendPath(line.shape, offset: 0, to: &buffer) }
    buffer.raw("\" fill=\"none\" stroke=\"\(Palette.graticule)\" stroke-opacity=\".35\" stroke-width=\"0.7\"/>")
    let cities = NaturalEarthCities.labels(in: projector.projection)
    guard !cities.isEmpty else { return }
    buffer.raw("<g class=\"cities\" font-size=\"11\" fill=\"\(Palette.cityText)\">")
    for (city, point) in cities {
      buffer.raw("<g class=\"city\" transform=\"translate(")
      buffer.number(point.x)
      buffer.byte(UInt8(ascii: " "))
      buffer.number(point.y)
      buffer.raw(")\"><circle r=\"2.5\" fill=\"\(Palette.cityText)\" stroke=\"#FFF\" stroke-width=\"1\"/>")
      buffer.raw(
        "<text x=\"5\" y=\"4\" stroke=\"#FFF\" stroke-width=\"2.5\" stroke-linejoin=\"round\" paint-order=\"stroke\">")
      buffer.escaped(city.name)
      buffer.raw("</text></g>")
    }
    buffer.raw("</g>")
  }
}
