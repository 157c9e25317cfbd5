import Foundation
import WaymarkCore
import WaymarkRender
import WaymarkScenarios
import WaymarkScripting

/// What `GET /state` answers: the state an HTML replay's `waymarkReplay.state()` gives (the
/// camera, the drawn markers at their screen points in draw order, the shown info window and
/// its text), plus the selected marker, the view's size, the plugins with their live
/// versions, and the live clock.
struct LiveMapState: Encodable, Sendable {
  /// A camera as `{ lat, lng, zoom, bearing, tilt }`.
  struct Camera: Encodable, Sendable {
    var lat, lng, zoom, bearing, tilt: Double
  }

  /// A drawn marker: its id and the screen point of its position.
  struct DrawnMarker: Encodable, Sendable {
    var id: String
    var x, y: Double
  }

  /// The shown info window: its marker, kind, and text (its lines, joined by newlines).
  struct Window: Encodable, Sendable {
    var marker: String?
    var kind: String
    var text: String
  }

  /// The view's size in points.
  struct ViewSize: Encodable, Sendable {
    var width, height: Double
  }

  var t: Double
  var camera: Camera
  var markers: [DrawnMarker]
  var infoWindow: Window?
  var selected: String?
  var size: ViewSize
  var plugins: [LivePlugin]
  var clock: ClockState

  /// The state of `map` now (every number rounded as the trace rounds it): its scene's drawn
  /// markers and window, as the SVG draws them.
  init(map: MapView, plugins: [LivePlugin], clock: ClockState) {
    func round(_ value: Double) -> Double { EncodedValue.rounded(value) ?? 0 }
    let camera = map.camera
    t = round(map.clock.now)
    self.camera = Camera(
      lat: round(camera.target.latitude), lng: round(camera.target.longitude), zoom: round(camera.zoom),
      bearing: round(camera.bearing), tilt: round(camera.tilt))
    // What the picture of /map.svg draws: the map's scene, described as the replay's page
    // describes one.
    let scene = Scene(of: map), projection = scene.projection
    markers = scene.drawnMarkers(projection).map { marker, placement in
      DrawnMarker(id: marker.id, x: round(placement.anchor.x), y: round(placement.anchor.y))
    }
    infoWindow = scene.windowOrigin(projection).map { window, _ in
      Window(marker: window.id, kind: window.kind, text: window.text)
    }
    selected = map.selectedMarker?.id
    size = ViewSize(width: map.viewSize.width, height: map.viewSize.height)
    self.plugins = plugins
    self.clock = clock
  }

  private enum Key: String, CodingKey {
    case t, camera, markers, infoWindow, selected, size, plugins, clock
  }

  /// Encodes every key, `null` for no window and no selection (as the replay's state does).
  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(t, forKey: .t)
    try container.encode(camera, forKey: .camera)
    try container.encode(markers, forKey: .markers)
    try container.encode(infoWindow, forKey: .infoWindow)
    try container.encode(selected, forKey: .selected)
    try container.encode(size, forKey: .size)
    try container.encode(plugins, forKey: .plugins)
    try container.encode(clock, forKey: .clock)
  }
}
