import WaymarkCore

/// A marker as a scene holds it: where it stands and how its sprite is placed there. What
/// it looks like is its ``MarkerSprite``, drawn once in Swift; every renderer places the
/// sprite as ``MarkerPlacement`` says and draws nothing of its own.
package struct SceneMarker: Codable, Equatable, Sendable {
  /// Its number in the scene: the same marker keeps it across a replay's events.
  package var n: Int
  /// Its id (`data-id`).
  package var id: String
  /// Its position.
  package var lat, lng: Double
  /// The sprite it shows at the scene's time, in ``SceneLibrary/sprites``.
  package var sprite: Int
  /// For a multi-frame icon (R48), every frame's sprite and the seconds each shows: at time
  /// t it shows frame ⌊t / period⌋ mod count.
  package var frames: SceneFrames?
  /// Degrees clockwise it is turned (R4).
  package var rotation: Double
  /// Whether it lies on the ground: a flat marker under a policy that turns flat markers
  /// with the map, so the bearing turns it and the tilt foreshortens it (R44).
  package var ground: Bool
  /// Its opacity.
  package var opacity: Double
  /// Its z-index, then its order of addition: the drawing order (R4).
  package var z, order: Int
  /// Its appear animation (R45), while it plays.
  package var appear: SceneAppear?
}

/// The frames of a multi-frame icon (R48).
package struct SceneFrames: Codable, Equatable, Sendable {
  /// Seconds each frame shows.
  package var period: Double
  /// Each frame's sprite, in order.
  package var sprites: [Int]
}

/// An appear animation playing (R45).
package struct SceneAppear: Codable, Equatable, Sendable {
  /// How the marker appears.
  package enum Animation: String, Codable, Sendable {
    /// Scales up about its ground anchor.
    case pop
    /// Fades in.
    case fadeIn = "fade_in"
  }

  /// How the marker appears.
  package var animation: Animation
  /// When it was added, in virtual seconds.
  package var start: Double
  /// How long the animation lasts (the policy's appear duration).
  package var duration: Double
}

/// How a marker looks around its ground anchor: its icon drawn once, with what placing it
/// needs. A renderer puts the sprite's ground anchor at the marker's screen point, turns,
/// squashes, scales and fades it there (``MarkerPlacement``), and draws nothing else.
///
/// Markers that show the same icon with the same anchors and insets share a sprite.
package struct MarkerSprite: Codable, Equatable, Sendable {
  /// The icon's markup in its own box, from (0, 0) to its size.
  package var art: String
  /// The same when the marker is selected: with a highlight of its box.
  package var selectedArt: String
  /// Where the box's top-left corner is from the ground anchor: the insets and the ground
  /// anchor's share of the rectangle inside them (R37).
  package var offset: ScenePoint
  /// The rectangle inside the insets around the ground anchor: what a tap hits (R4) and
  /// what must reach into the view for the marker to be drawn.
  package var box: SceneBox
  /// The info window anchor, from the ground anchor: where a window's tail sits (R7).
  package var window: ScenePoint
}

/// A rectangle by its edges, in points from the ground anchor, before the marker is turned.
package struct SceneBox: Codable, Equatable, Sendable {
  /// The edges.
  package var left, top, right, bottom: Double
}
