import WaymarkCore

/// How a marker's group is placed beyond its anchor: its screen angle, how a flat marker is
/// foreshortened on the tilted ground (R44), and its appear animation (R45), written into
/// the group's transform as `translate(anchor) scale(1 squash) rotate(angle) scale(s)
/// translate(-ground anchor)`: the scales act about the ground anchor. The replay page
/// writes the same (MapDrawingScript.swift).
struct MarkerPose {
  /// Degrees clockwise on the screen (R4).
  var angle: Double
  /// The screen-vertical scale of a flat marker under tilt (1 otherwise).
  var squash = 1.0
  /// The appear animation playing, if any.
  var appearance: MarkerAppearance?

  /// `scale(1 squash)` for a foreshortened flat marker, nothing otherwise.
  func appendGroundTransform(to buffer: inout SVGBuffer) {
    guard squash != 1 else { return }
    buffer.raw(" scale(1 ")
    buffer.number(squash, decimals: 4)
    buffer.byte(UInt8(ascii: ")"))
  }

  /// `scale(s)` while a pop plays, nothing otherwise.
  func appendAppearScale(to buffer: inout SVGBuffer) {
    guard let appearance, appearance.animation == .pop else { return }
    let scale = appearance.scale
    buffer.raw(" scale(")
    buffer.number(scale, decimals: 4)
    buffer.byte(UInt8(ascii: ")"))
  }
}
