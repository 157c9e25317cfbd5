import WaymarkCore

/// Polylines, polygons, circles and ground overlays, in the scene's order (R15).
enum OverlayLayer {
  static func append(_ overlays: [SceneOverlay], _ projector: ShapeProjector, to buffer: inout SVGBuffer) {
    guard !overlays.isEmpty else { return }
    buffer.raw("<g class=\"overlays\">")
    for overlay in overlays { append(overlay, projector, to: &buffer) }
    buffer.raw("</g>")
  }

  /// One overlay, at the copy of the world nearest the camera.
  static func append(_ overlay: SceneOverlay, _ projector: ShapeProjector, to buffer: inout SVGBuffer) {
    let shapes = overlay.shapes.map { shape in
      WorldShape(
        stride(from: 0, to: shape.points.count - 1, by: 2).map {
          WorldPoint(x: shape.points[$0], y: shape.points[$0 + 1])
        },
        closed: shape.closed)
    }
    guard let first = shapes.first else { return }
    let offset = projector.nearestCopy(of: first)
    var path = SVGBuffer(capacity: 1024)
    for shape in shapes { projector.appendPath(shape, offset: offset, to: &path, decimals: 2) }
    guard !path.bytes.isEmpty else { return }
    buffer.raw("<g class=\"overlay\"")
    buffer.attribute("data-id", overlay.id)
    buffer.attribute("data-kind", overlay.kind)
    buffer.raw("><path d=\"")
    buffer.raw(path.text)
    buffer.raw("\"")
    buffer.raw(overlay.paint)
    buffer.raw("/>")
    if let label = overlay.label {
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
  static func append(_ places: ScenePlaces, _ projection: Projection, to buffer: inout SVGBuffer) {
    let view = Rect(x: -40, y: -20, width: projection.viewSize.width + 80, height: projection.viewSize.height + 40)
    let shown = places.pois.compactMap { poi in
      projection.point(for: Coordinate(latitude: poi.lat, longitude: poi.lng)).flatMap {
        view.contains($0) ? (poi, $0) : nil
      }
    }
    if !shown.isEmpty {
      buffer.raw("<g class=\"pois\">")
      for (poi, point) in shown { appendPOI(poi, at: point, to: &buffer) }
      buffer.raw("</g>")
    }
    if let me = places.me, let point = projection.point(for: me.coordinate) {
      buffer.raw("<g class=\"my-location\"")
      buffer.attribute("transform", "translate(\(format(point.x)) \(format(point.y)))")
      buffer.raw("><circle r=\"18\" fill=\"\(Palette.accent)\" fill-opacity=\".16\"/>")
      buffer.raw("<circle r=\"7.5\" fill=\"\(Palette.accent)\" stroke=\"#FFF\" stroke-width=\"2.5\"/></g>")
    }
  }

  /// A point of interest: a dot and its name.
  static func appendPOI(_ poi: ScenePOI, at point: Point, to buffer: inout SVGBuffer) {
    buffer.raw("<g class=\"poi\"")
    buffer.attribute("data-place-id", poi.id)
    buffer.attribute("transform", "translate(\(format(point.x)) \(format(point.y)))")
    buffer.raw("><circle r=\"5\" fill=\"#34A853\" stroke=\"#FFF\" stroke-width=\"1.5\"/>")
    buffer.raw("<text x=\"8\" y=\"4\" font-size=\"11\" fill=\"#188038\" stroke=\"#FFF\" stroke-width=\"3\"")
    buffer.raw(" stroke-linejoin=\"round\" paint-order=\"stroke\">")
    buffer.escaped(poi.name)
    buffer.raw("</text></g>")
  }
}

/// Markers in drawing order (R4), each its sprite placed.
enum MarkerLayer {
  static func append(_ scene: Scene, _ projection: Projection, to buffer: inout SVGBuffer) {
    buffer.raw("<g class=\"markers\">")
    for (marker, placement) in scene.drawnMarkers(projection) {
      append(
        marker, scene.library.sprites[marker.sprite], placement, selected: marker.n == scene.state.selected, to: &buffer
      )
    }
    buffer.raw("</g>")
  }

  /// One marker's group: the contract's attributes, the placement, the sprite's art.
  static func append(
    _ marker: SceneMarker, _ sprite: MarkerSprite, _ placement: MarkerPlacement, selected: Bool,
    to buffer: inout SVGBuffer
  ) {
    let anchor = placement.anchor
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
    if placement.squash != 1 {
      buffer.raw(" scale(1 ")
      buffer.number(placement.squash, decimals: 4)
      buffer.byte(UInt8(ascii: ")"))
    }
    if placement.angle.truncatingRemainder(dividingBy: 360) != 0 {
      buffer.raw(" rotate(")
      buffer.number(placement.angle, decimals: 4)
      buffer.byte(UInt8(ascii: ")"))
    }
    if let pop = placement.pop {
      buffer.raw(" scale(")
      buffer.number(pop, decimals: 4)
      buffer.byte(UInt8(ascii: ")"))
    }
    buffer.raw(" translate(")
    buffer.number(sprite.offset.x, decimals: 4)
    buffer.byte(UInt8(ascii: " "))
    buffer.number(sprite.offset.y, decimals: 4)
    buffer.raw(")\"")
    if placement.opacity < 1 { buffer.attribute("opacity", placement.opacity, decimals: 3) }
    buffer.raw(">")
    buffer.raw(selected ? sprite.selectedArt : sprite.art)
    buffer.raw("</g>")
  }
}

/// The shown window (R7, R9), its tail on its marker's info-window anchor.
enum InfoWindowLayer {
  static func append(_ scene: Scene, _ projection: Projection, to buffer: inout SVGBuffer) {
    guard let (window, origin) = scene.windowOrigin(projection) else { return }
    let transform = "translate(\(format(origin.x)) \(format(origin.y)))"
    buffer.raw("<g class=\"info-window\"")
    buffer.attribute("data-marker", window.id ?? "")
    buffer.attribute("data-kind", window.kind)
    if let place = window.place { buffer.attribute("data-place-id", place.id) }
    buffer.attribute("transform", transform)
    buffer.raw(">")
    buffer.raw(window.body)
    buffer.raw("</g>")
    if !window.labels.isEmpty {
      buffer.raw("<g class=\"info-window-labels\"")
      buffer.attribute("transform", transform)
      buffer.raw(">")
      buffer.raw(window.labels)
      buffer.raw("</g>")
    }
  }
}

/// The compass button (R69): in the top right corner of the padded view, while enabled and
/// the bearing is not 0, its needle pointing north on the screen.
enum CompassLayer {
  static func append(_ state: SceneState, to buffer: inout SVGBuffer) {
    let view = state.view
    guard view.compass == true, state.camera.bearing != 0 else { return }
    buffer.raw("<g class=\"compass\"")
    buffer.attribute("data-bearing", state.camera.bearing, decimals: 6)
    buffer.attribute(
      "transform", "translate(\(format(view.width - view.right - 30)) \(format(view.top + 30)))")
    buffer.raw("><circle r=\"18\" fill=\"#FFF\" stroke=\"#000\" stroke-opacity=\".2\"/>")
    buffer.raw("<g transform=\"rotate(\(format(-state.camera.bearing)))\">")
    buffer.raw("<path d=\"M0 -13L5 0H-5Z\" fill=\"#EA4335\"/><path d=\"M0 13L5 0H-5Z\" fill=\"#9AA0A6\"/></g></g>")
  }
}
