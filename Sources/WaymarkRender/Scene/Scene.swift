import WaymarkCore

/// What a map shows at one moment, with named fields and a version: the one description of a
/// map that every picture draws. ``SceneBuilder`` makes it from a map's state, and nothing
/// else reads a map for drawing.
///
/// - The SVG snapshot draws the scene of a map now (``Scene/init(of:)``).
/// - The HTML replay records scenes over time (``SceneTimeline``: keyframes of
///   ``SceneState`` and the ``SceneEvent``s that change it) and its page draws the scene of
///   each moment, placing the same sprites the same way (`MapDrawingScript`).
/// - The live page of `waymark serve` shows the SVG, and its `/state` describes the scene.
///
/// What is drawn once and referred to by number (markers' sprites, info windows, overlay
/// sets, place sets) is in the ``SceneLibrary``; the rest is the ``SceneState``. Its JSON
/// form (``JSONWriter``) is the page's data, described in docs/pictures.md.
package struct Scene: Codable, Equatable, Sendable {
  /// The version of the scene's JSON form: it goes up when a field changes meaning or goes
  /// away (a new field that readers may ignore keeps it).
  package static let currentVersion = 1

  /// The version this scene was written in.
  package var version = Scene.currentVersion
  /// What the state refers to by number.
  package var library: SceneLibrary
  /// The moment itself.
  package var state: SceneState
}

/// What a scene draws once and refers to by number.
package struct SceneLibrary: Codable, Equatable, Sendable {
  /// Markers' drawings (``SceneMarker/sprite``).
  package var sprites: [MarkerSprite] = []
  /// Info windows as laid out (``SceneState/window``).
  package var windows: [SceneWindow] = []
  /// Sets of overlays, each in drawing order (``SceneState/overlays``).
  package var overlays: [[SceneOverlay]] = []
  /// Sets of points of interest with the my-location dot (``SceneState/places``).
  package var places: [ScenePlaces] = []

  /// An empty library.
  package init() {}
}

/// A map's state at one moment, its drawings referred to by their numbers in a
/// ``SceneLibrary``.
package struct SceneState: Codable, Equatable, Sendable {
  /// Virtual seconds.
  package var t: Double
  /// The camera.
  package var camera: SceneCamera
  /// The view's size and padding.
  package var view: SceneView
  /// The markers that may be drawn (a picture's: those that reach into the view, and the
  /// shown window's; the replay's: all), each with its number. Drawing sorts them by
  /// z-index, then order, and draws those that reach into the view.
  package var markers: [SceneMarker]
  /// The number of the selected marker.
  package var selected: Int?
  /// The shown window, in ``SceneLibrary/windows``.
  package var window: Int?
  /// The overlays, in ``SceneLibrary/overlays``.
  package var overlays: Int
  /// The points of interest and my location, in ``SceneLibrary/places``.
  package var places: Int
}

/// A camera: target, zoom, bearing and tilt.
package struct SceneCamera: Codable, Equatable, Sendable {
  /// The target's latitude and longitude, the zoom, and the bearing and tilt in degrees.
  package var lat, lng, zoom, bearing, tilt: Double

  /// The camera as the core has it.
  var position: CameraPosition {
    CameraPosition(target: Coordinate(latitude: lat, longitude: lng), zoom: zoom, bearing: bearing, tilt: tilt)
  }
}

/// The view: its size and padding, in points.
package struct SceneView: Codable, Equatable, Sendable {
  /// The size, then the padding on each side.
  package var width, height, top, left, bottom, right: Double
  /// true while the compass button is enabled (R69; nil, left out of the JSON, while off):
  /// drawn while the bearing is not 0.
  package var compass: Bool?
}

/// A place on the earth.
package struct SceneCoordinate: Codable, Equatable, Sendable {
  /// Degrees of latitude and longitude.
  package var lat, lng: Double

  /// The coordinate as the core has it.
  var coordinate: Coordinate { Coordinate(latitude: lat, longitude: lng) }
}

/// A point in a drawing's own coordinates, in points.
package struct ScenePoint: Codable, Equatable, Hashable, Sendable {
  /// Rightwards and downwards.
  package var x, y: Double
}

/// The info window shown (R7), laid out and drawn in its own coordinates.
package struct SceneWindow: Codable, Equatable, Sendable {
  /// The number of its marker, whose info-window anchor its tail sits on.
  package var marker: Int?
  /// Its marker's id (`data-marker`).
  package var id: String?
  /// The point of interest it belongs to (the web policy's POI windows: R33).
  package var place: ScenePOI?
  /// window, contents or default.
  package var kind: String
  /// Its size; the tail's tip is the middle of its bottom edge.
  package var width, height: Double
  /// Its drawing (``InfoWindowArt``).
  package var body: String
  /// The names of its images, drawn over it.
  package var labels: String
  /// Its text lines, joined by newlines (``InfoWindowText``).
  package var text: String
}

/// An overlay ready to draw (``OverlayArt``): its outline in world coordinates and its paint.
package struct SceneOverlay: Codable, Equatable, Sendable {
  /// An outline: world points as `[x0, y0, x1, y1, ...]`, taken the short way around the world.
  package struct Shape: Codable, Equatable, Sendable {
    /// Whether the last point joins the first (a ring).
    package var closed: Bool
    /// The points, x and y in turn.
    package var points: [Double]
  }

  /// The overlay's id.
  package var id: String
  /// polyline, polygon, circle or ground_overlay.
  package var kind: String
  /// SVG attributes: ` fill=".." stroke=".."`.
  package var paint: String
  /// A ground overlay's image name.
  package var label: String?
  /// A polyline's path, a polygon's outer ring then its holes, a circle's ring, a ground
  /// overlay's box.
  package var shapes: [Shape]
}

/// A point of interest (R17).
package struct ScenePOI: Codable, Equatable, Sendable {
  /// Its place id.
  package var id: String
  /// The label the base map shows.
  package var name: String
  /// Where it is.
  package var lat, lng: Double
}

/// The points of interest and the my-location dot (R32).
package struct ScenePlaces: Codable, Equatable, Sendable {
  /// The points of interest, in the order the map has them.
  package var pois: [ScenePOI]
  /// Where the dot is, when shown.
  package var me: SceneCoordinate?
}
