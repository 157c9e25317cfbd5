import Foundation
import WaymarkCore

/// Where a scene's marker stands on the screen for one camera at one moment, and how its
/// sprite is turned, foreshortened, scaled and faded there (R4, R44, R45): the marker's group
/// is `translate(anchor) scale(1 squash) rotate(angle) scale(pop) translate(offset)` with
/// `opacity`, the sprite's art inside. Its points land where hit-testing puts them
/// (`MarkerGeometry`, operation for operation). The replay page places sprites the same way
/// (`MapDrawingScript`, `placement`), which a test checks without a browser.
package struct MarkerPlacement {
  /// The screen point of the marker's position.
  package let anchor: Point
  /// Degrees clockwise on the screen: its rotation, less the bearing if it lies on the
  /// ground.
  let angle: Double
  /// How the ground foreshortens it under tilt if it lies on the ground, else 1.
  let squash: Double
  /// The scale of a pop while it plays (nil otherwise).
  let pop: Double?
  /// Its opacity, times a fade in's progress while one plays.
  let opacity: Double

  /// The placement of `marker` for `projection` at virtual time `time`; nil when its
  /// position is beyond the horizon.
  init?(_ marker: SceneMarker, projection: Projection, time: Double) {
    guard let anchor = projection.point(for: Coordinate(latitude: marker.lat, longitude: marker.lng)) else {
      return nil
    }
    self.anchor = anchor
    angle = marker.ground ? marker.rotation - projection.camera.bearing : marker.rotation
    squash = marker.ground ? projection.groundForeshortening : 1
    let appearance = marker.appear.flatMap { appear in
      MarkerAppearance(
        appear.animation == .pop ? .pop : .fadeIn, start: appear.start, duration: appear.duration, now: time)
    }
    pop = appearance?.animation == .pop ? appearance?.scale : nil
    opacity = marker.opacity * (appearance?.opacityFactor ?? 1)
  }

  /// The screen point of a point of the sprite, given from its ground anchor.
  func point(_ local: ScenePoint) -> Point {
    let radians = angle * .pi / 180
    let (c, s) = radians == 0 ? (1, radians) : (cos(radians), sin(radians))
    return Point(x: anchor.x + local.x * c - local.y * s, y: anchor.y + (local.x * s + local.y * c) * squash)
  }

  /// Whether the sprite's box reaches into `view`, as the core's `markers(in:)` decides.
  func reaches(_ box: SceneBox, into view: Rect) -> Bool {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    for (x, y) in [(box.left, box.top), (box.right, box.top), (box.left, box.bottom), (box.right, box.bottom)] {
      let p = point(ScenePoint(x: x, y: y))
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
    }
    let bounds = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    return bounds.maxX >= view.minX && bounds.minX <= view.maxX && bounds.maxY >= view.minY
      && bounds.minY <= view.maxY
  }
}

extension Scene {
  /// The projection of the scene's camera and view.
  package var projection: Projection {
    let view = state.view, camera = state.camera
    return Projection(
      camera: camera.position, viewSize: Size(width: view.width, height: view.height),
      padding: EdgeInsets(top: view.top, left: view.left, bottom: view.bottom, right: view.right))
  }

  /// The markers drawn, in drawing order (z-index, then order: R4), each with its placement:
  /// those whose box reaches into the view.
  package func drawnMarkers(_ projection: Projection) -> [(marker: SceneMarker, placement: MarkerPlacement)] {
    let view = Rect(x: 0, y: 0, width: state.view.width, height: state.view.height)
    return state.markers.sorted { ($0.z, $0.order) < ($1.z, $1.order) }.compactMap { marker in
      guard let placement = MarkerPlacement(marker, projection: projection, time: state.t),
        placement.reaches(library.sprites[marker.sprite].box, into: view)
      else { return nil }
      return (marker, placement)
    }
  }

  /// The shown window and the screen point of its top-left corner: its tail on its marker's
  /// info window anchor (R7), or on its point of interest; nil when it is not drawn.
  package func windowOrigin(_ projection: Projection) -> (window: SceneWindow, origin: Point)? {
    guard let number = state.window else { return nil }
    let window = library.windows[number]
    let tail: Point?
    if let place = window.place {
      tail = projection.point(for: Coordinate(latitude: place.lat, longitude: place.lng))
    } else if let marker = state.markers.first(where: { $0.n == window.marker }) {
      tail = MarkerPlacement(marker, projection: projection, time: state.t).map { placement in
        placement.point(library.sprites[marker.sprite].window)
      }
    } else {
      tail = nil
    }
    guard let tail else { return nil }
    return (window, Point(x: tail.x - window.width / 2, y: tail.y - window.height))
  }
}
