/// What a marker animation moves (R46), like the animatable keys of Google's
/// `GMSMarkerLayer`: any of the position, the rotation and the opacity; nil leaves one as it is.
public struct MarkerAnimationTarget: Hashable, Sendable {
  /// Where the marker ends; nil keeps its position.
  public var position: Coordinate?
  /// The rotation it ends at, in degrees clockwise; reached the short way round.
  public var rotation: Double?
  /// The opacity it ends at, 0...1.
  public var opacity: Double?

  /// A target moving the fields given.
  public init(position: Coordinate? = nil, rotation: Double? = nil, opacity: Double? = nil) {
    self.position = position
    self.rotation = rotation
    self.opacity = opacity
  }

  /// The target with every value in its domain, or an error naming the first field out of it
  /// (`animateMarker.opacity: 1.5 is outside 0...1`).
  func validated() throws(MapError) -> MarkerAnimationTarget {
    var target = self
    target.position = try position?.validated("animateMarker.position")
    if let rotation { try MapError.requireFinite(rotation, "animateMarker.rotation") }
    if let opacity { try MapError.require(opacity, in: 0...1, "animateMarker.opacity") }
    return target
  }
}

/// A marker animation running on the frames (S3, R46): from the marker's values when it
/// started to the target's, over `duration` seconds of virtual time.
struct MarkerAnimation {
  let marker: Marker
  /// The position's start (as a world point) and end; nil when the position is not animated.
  let position: (from: WorldPoint, to: Coordinate)?
  /// The rotation's start and end; nil when not animated.
  let rotation: (from: Double, to: Double)?
  /// The opacity's start and end; nil when not animated.
  let opacity: (from: Double, to: Double)?
  let start: Double
  let duration: Double
  let easing: Easing
  let completion: ((Bool) -> Void)?

  /// An animation of `marker` from where it is now to `target` (valid).
  init(
    marker: Marker, to target: MarkerAnimationTarget, start: Double, duration: Double, easing: Easing,
    completion: ((Bool) -> Void)?
  ) {
    self.marker = marker
    position = target.position.map { (Mercator.worldPoint(marker.position), $0) }
    rotation = target.rotation.map { (marker.rotation, $0) }
    opacity = target.opacity.map { (marker.opacity, $0) }
    self.start = start
    self.duration = duration
    self.easing = easing
    self.completion = completion
  }

  /// Whether it moves only the position (the marker then moves without an options update).
  var movesOnlyPosition: Bool { rotation == nil && opacity == nil }

  /// The position at eased progress `fraction` (1: exactly the target).
  func position(at fraction: Double) -> Coordinate? {
    guard let position else { return nil }
    return fraction >= 1 ? position.to : Mercator.interpolate(from: position.from, to: position.to, fraction: fraction)
  }

  /// The opacity at eased progress `fraction` (1: exactly the target).
  func opacity(at fraction: Double) -> Double? {
    guard let opacity else { return nil }
    return fraction >= 1 ? opacity.to : min(max(opacity.from + (opacity.to - opacity.from) * fraction, 0), 1)
  }

  /// The rotation at eased progress `fraction` (1: exactly the target), the short way round
  /// (350 to 10 passes 0). While both ends are within 0..<360 the values between stay in it.
  func rotation(at fraction: Double) -> Double? {
    guard let rotation else { return nil }
    if fraction >= 1 { return rotation.to }
    let value = rotation.from + Self.shortestTurn(from: rotation.from, to: rotation.to) * fraction
    guard (0..<360).contains(rotation.from) && (0..<360).contains(rotation.to) else { return value }
    let wrapped = value.truncatingRemainder(dividingBy: 360)
    return wrapped < 0 ? wrapped + 360 : wrapped
  }

  /// The turn from `from` to `to` in degrees within -180...180: the short way round.
  static func shortestTurn(from: Double, to: Double) -> Double {
    var turn = (to - from).truncatingRemainder(dividingBy: 360)
    if turn > 180 { turn -= 360 }
    if turn < -180 { turn += 360 }
    return turn
  }
}
