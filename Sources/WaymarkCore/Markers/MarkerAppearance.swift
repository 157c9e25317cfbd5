/// How far a marker's appear animation (R45) has played at a moment, for renderers: a pop
/// scales the icon up about its ground anchor, a fade in raises its opacity.
package struct MarkerAppearance: Hashable, Sendable {
  /// The animation playing (never ``MarkerAppearAnimation/none``).
  package let animation: MarkerAppearAnimation
  /// When the marker was added to the map, in virtual seconds.
  package let start: Double
  /// The eased progress, 0 ..< 1.
  package let fraction: Double

  /// The state at `now` of `animation` started at `start` and lasting `duration` seconds,
  /// or nil once it has played (or for no animation).
  package init?(_ animation: MarkerAppearAnimation, start: Double, duration: Double, now: Double) {
    guard animation != .none, duration > 0, now < start + duration else { return nil }
    self.animation = animation
    self.start = start
    fraction = MarkerAppearance.eased(max(now - start, 0) / duration)
  }

  /// The curve of appear animations: a cubic ease-out, `1 - (1 - p)^3`, written the same
  /// way in the replay page so both draw the same values.
  package static func eased(_ progress: Double) -> Double {
    let rest = 1 - min(max(progress, 0), 1)
    return 1 - rest * rest * rest
  }

  /// What the icon's opacity is multiplied by: the fraction for a fade in, else 1.
  package var opacityFactor: Double { animation == .fadeIn ? fraction : 1 }

  /// The icon's scale about its ground anchor: the fraction for a pop, else 1.
  package var scale: Double { animation == .pop ? fraction : 1 }
}
