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

/// Polylines, polygons, circles and ground overlays, lowest z-index first, then in the
/// order they were added (R15).
enum OverlayLayer {
  static func append(_ overlays: [Overlay], _ projector: ShapeProjector, to buffer: inout SVGBuffer) {
    guard !overlays.isEmpty else { return }
    buffer.raw("<g class=\"overlays\">")
    for overlay in sorted(overlays) { append(OverlayArt(overlay), projector, to: &buffer) }
    buffer.raw("</g>")
  }

  /// The overlays in drawing order.
  static func sorted(_ overlays: [Overlay]) -> [Overlay] {
    overlays.enumerated().sorted { ($0.element.zIndex, $0.offset) < ($1.element.zIndex, $1.offset) }.map(\.element)
  }

  static func append(_ art: OverlayArt, _ projector: ShapeProjector, to buffer: inout SVGBuffer) {
    guard let first = art.shapes.first else { return }
    let offset = projector.nearestCopy(of: first)
    var path = SVGBuffer(capacity: 1024)
    for shape in art.shapes { projector.appendPath(shape, offset: offset, to: &path, decimals: 2) }
    guard !path.bytes.isEmpty else { return }
    buffer.raw("<g class=\"overlay\"")
    buffer.attribute("data-id", art.id)
    buffer.attribute("data-kind", art.kind)
    buffer.raw("><path d=\"")
    buffer.raw(path.text)
    buffer.raw("\"")
    buffer.raw(art.paint)
    buffer.raw("/>")
    if let label = art.label {
      let corners = projector.screenPoints(first, offset: offset)
      if !corners.isEmpty {
        let x = corners.map(\.x).reduce(0, +) / Double(corners.count)
        let y = corners.map(\.y).reduce(0, +) / Double(corners.count)
        MarkerArt.appendLabel(label, in: Rect(x: x - 60, y: y - 10, width: 120, height: 20), to: &buffer)
      }
    }
    buffer.raw("</g>")
  }
}

/// Points of interest (R17) and the my-location dot (R32).
enum PlaceLayer {
  static func append(_ map: MapView, _ projection: Projection, to buffer: inout SVGBuffer) {
    let view = Rect(x: -40, y: -20, width: projection.viewSize.width + 80, height: projection.viewSize.height + 40)
    let places = map.pointsOfInterest.compactMap { poi in
      projection.point(for: poi.location).flatMap { view.contains($0) ? (poi, $0) : nil }
    }
    if !places.isEmpty {
      buffer.raw("<g class=\"pois\">")
      for (poi, point) in places { appendPOI(poi, at: point, to: &buffer) }
      buffer.raw("</g>")
    }
    if map.isMyLocationEnabled, let location = map.myLocation, let point = projection.point(for: location) {
      buffer.raw("<g class=\"my-location\"")
      buffer.attribute("transform", "translate(\(format(point.x)) \(format(point.y)))")
      buffer.raw("><circle r=\"18\" fill=\"\(Palette.accent)\" fill-opacity=\".16\"/>")
      buffer.raw("<circle r=\"7.5\" fill=\"\(Palette.accent)\" stroke=\"#FFF\" stroke-width=\"2.5\"/></g>")
    }
  }

  /// A point of interest: a dot and its name.
  static func appendPOI(_ poi: PointOfInterest, at point: Point, to buffer: inout SVGBuffer) {
    buffer.raw("<g class=\"poi\"")
    buffer.attribute("data-place-id", poi.placeID)
    buffer.attribute("transform", "translate(\(format(point.x)) \(format(point.y)))")
    buffer.raw("><circle r=\"5\" fill=\"#34A853\" stroke=\"#FFF\" stroke-width=\"1.5\"/>")
    buffer.raw("<text x=\"8\" y=\"4\" font-size=\"11\" fill=\"#188038\" stroke=\"#FFF\" stroke-width=\"3\"")
    buffer.raw(" stroke-linejoin=\"round\" paint-order=\"stroke\">")
    buffer.escaped(poi.name)
    buffer.raw("</text></g>")
  }
}

/// Markers in drawing order (R4).
enum MarkerLayer {
  static func append(_ map: MapView, to buffer: inout SVGBuffer) {
    let projection = map.projection
    let view = Rect(x: 0, y: 0, width: projection.viewSize.width, height: projection.viewSize.height)
    let markers = map.markers(in: view)
    buffer.raw("<g class=\"markers\">")
    let bearing = map.flatMarkerBearing
    let foreshortening = map.flatMarkerForeshortening
    let selected = map.selectedMarker
    for marker in markers {
      guard let anchor = projection.point(for: marker.position) else { continue }
      let pose = MarkerPose(
        angle: MarkerGeometry.angle(of: marker, bearing: bearing), squash: marker.flat ? foreshortening : 1,
        appearance: map.appearance(of: marker))
      append(marker, at: anchor, pose, selected: marker === selected, to: &buffer)
    }
    buffer.raw("</g>")
  }

  /// One marker's group: the contract's attributes, its placement, its icon.
  static func append(_ marker: Marker, at anchor: Point, _ pose: MarkerPose, selected: Bool, to buffer: inout SVGBuffer)
  {
    let angle = pose.angle
    // The anchors are unit coordinates of the rectangle inside the icon's insets (R37).
    let size = marker.alignmentSize, groundAnchor = marker.groundAnchor, insets = marker.iconInsets
    buffer.raw("<g class=\"marker\"")
    buffer.attribute("data-id", marker.id)
    buffer.attribute("data-x", anchor.x)
    buffer.attribute("data-y", anchor.y)
    if selected { buffer.raw(" data-selected=\"true\"") }
    buffer.raw(" transform=\"translate(")
    buffer.number(anchor.x)
    buffer.byte(UInt8(ascii: " "))
    buffer.number(anchor.y)
    buffer.byte(UInt8(ascii: ")"))
    pose.appendGroundTransform(to: &buffer)
    if angle.truncatingRemainder(dividingBy: 360) != 0 {
      buffer.raw(" rotate(")
      buffer.number(angle, decimals: 4)
      buffer.byte(UInt8(ascii: ")"))
    }
    pose.appendAppearScale(to: &buffer)
    buffer.raw(" translate(")
    buffer.number(-(insets.left + groundAnchor.x * size.width), decimals: 4)
    buffer.byte(UInt8(ascii: " "))
    buffer.number(-(insets.top + groundAnchor.y * size.height), decimals: 4)
    buffer.raw(")\"")
    let opacity = marker.opacity * (pose.appearance?.opacityFactor ?? 1)
    if opacity < 1 { buffer.attribute("opacity", opacity, decimals: 3) }
    buffer.raw(">")
    MarkerArt.appendIcon(of: marker, selected: selected, to: &buffer)
    buffer.raw("</g>")
  }
}

/// The shown info window (R7, R9), its tail on the marker's info-window anchor.
enum InfoWindowLayer {
  static func append(_ map: MapView, to buffer: inout SVGBuffer) {
    guard let window = map.infoWindow, let frame = map.infoWindowFrame else { return }
    let transform = "translate(\(format(frame.x)) \(format(frame.y)))"
    var body = SVGBuffer(capacity: 2048), labels = SVGBuffer(capacity: 256)
    InfoWindowArt.append(window.layout, body: &body, labels: &labels)
    buffer.raw("<g class=\"info-window\"")
    buffer.attribute("data-marker", window.marker?.id ?? "")
    buffer.attribute("data-kind", window.kindName)
    if let poi = window.pointOfInterest { buffer.attribute("data-place-id", poi.placeID) }
    buffer.attribute("transform", transform)
    buffer.raw(">")
    buffer.raw(body.text)
    buffer.raw("</g>")
    if !labels.bytes.isEmpty {
      buffer.raw("<g class=\"info-window-labels\"")
      buffer.attribute("transform", transform)
      buffer.raw(">")
      buffer.raw(labels.text)
      buffer.raw("</g>")
    }
  }
}

/// A number as the SVG writes it (two decimals at most).
func format(_ value: Double, decimals: Int = 2) -> String {
  var buffer = SVGBuffer(capacity: 24)
  buffer.number(value, decimals: decimals)
  return buffer.text
}
