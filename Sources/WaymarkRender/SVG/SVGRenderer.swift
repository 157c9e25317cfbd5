import WaymarkCore

/// Draws a map's current state as an SVG document at the view's size: exactly what the
/// runtime believes, through the core's own projection and hit-testing geometry.
///
/// From the bottom up: the sea, Natural Earth's land and the graticule, projected through
/// the camera with its bearing and tilt; overlays by z-index (R15); points of interest
/// (R17); the my-location dot (R32); markers in the order a tap sees them, the last drawn on
/// top (R4), each placed, turned and faded as hit-testing places it; the info window (R7)
/// as the layout engine laid it out, its tail on the marker's `info_window_anchor`.
///
/// The markup follows a contract that tests and tools read (docs/pictures.md): the root
/// carries `data-t`, `data-lat`, `data-lng`, `data-zoom`, `data-bearing` and `data-tilt`;
/// each marker drawn is `<g class="marker" data-id data-x data-y>` where x, y is the screen
/// point of its position; the window is `<g class="info-window" data-marker data-kind>` with
/// its text as `<text>` elements. Only markers that reach into the view are drawn, found
/// through the map's spatial index, so the cost follows what is visible.
///
/// It draws the map's `Scene`, as the replay page does (docs/pictures.md). The output
/// depends only on the map's state: the same state gives the same bytes.
public struct SVGRenderer {
  /// Points of margin drawn around the view, so that strokes at the edges are not cut.
  static let margin = 8.0

  /// Creates a renderer.
  public init() {}

  /// The map's current state as a standalone SVG document.
  public func svg(of map: MapView) -> String {
    svg(of: Scene(of: map))
  }

  /// A scene as a standalone SVG document.
  func svg(of scene: Scene) -> String {
    var buffer = SVGBuffer(capacity: 64 << 10)
    let projection = scene.projection
    let size = projection.viewSize
    buffer.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"waymark-map\"")
    buffer.attribute("width", size.width)
    buffer.attribute("height", size.height)
    buffer.raw(" viewBox=\"0 0 ")
    buffer.number(size.width)
    buffer.byte(UInt8(ascii: " "))
    buffer.number(size.height)
    buffer.raw("\"")
    buffer.attribute("font-family", Palette.fontFamily)
    buffer.attribute("data-t", scene.state.t, decimals: 6)
    // Rounded as the trace rounds, every value in its range (R20): a bearing never reads 360.
    let shown = scene.state.camera.position.rounded(targetDecimals: 6, zoomDecimals: 6, angleDecimals: 6)
    buffer.attribute("data-lat", shown.target.latitude, decimals: 6)
    buffer.attribute("data-lng", shown.target.longitude, decimals: 6)
    buffer.attribute("data-zoom", shown.zoom, decimals: 6)
    buffer.attribute("data-bearing", shown.bearing, decimals: 6)
    buffer.attribute("data-tilt", shown.tilt, decimals: 6)
    buffer.raw(">")
    buffer.raw(MarkerArt.definitions)
    let projector = ShapeProjector(projection: projection, margin: Self.margin)
    BaseMapLayer.append(projector, to: &buffer)
    OverlayLayer.append(scene.library.overlays[scene.state.overlays], projector, to: &buffer)
    PlaceLayer.append(scene.library.places[scene.state.places], projection, to: &buffer)
    MarkerLayer.append(scene, projection, to: &buffer)
    InfoWindowLayer.append(scene, projection, to: &buffer)
    CompassLayer.append(scene.state, to: &buffer)
    buffer.raw("</svg>\n")
    return buffer.text
  }
}
