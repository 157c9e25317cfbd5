/// Animates the camera's channels independently on the virtual clock (R26, R27).
///
/// Each channel (target, zoom, bearing, tilt) runs at most one tween. Starting an animation
/// on a channel replaces its tween from the channel's current value; the other channels keep
/// running. An animation's completion runs once all its channels have ended, with `true` if
/// every one reached its end and `false` if any was replaced or stopped.
///
/// An animation that moves nothing (every channel it names is already at its destination
/// and none of them is animating: `scroll_by {0,0}`, `zoom_by = 0`, a fit or a zoom the
/// camera already has) animates no channel, whatever its duration: it lasts until the next
/// frame, which reports the unchanged camera as its one final frame (R23). Every kind of
/// update reports the same way, whether or not it moves.
final class CameraAnimator {
  /// A completion that is due, with whether its animation finished.
  typealias DueCompletion = (completion: (Bool) -> Void, finished: Bool)

  private struct Tween {
    let animation: Int
    let start: Double
    let duration: Double
    let easing: Easing
    let from: SIMD2<Double>
    let to: SIMD2<Double>
    /// The destination, applied exactly at the end (no round trip through world coordinates).
    let destination: CameraPosition
  }

  private struct Animation {
    var remainingChannels: Int
    var interrupted: Bool
    let completion: ((Bool) -> Void)?
  }

  // The animator makes no callbacks (it returns the completions that fall due). Its
  // exclusivity is checked: unchecked, camera_animation_100k's frames took 3.2% fewer
  // instructions (callgrind, 62.1M against 64.1M a run), under the 10% a benchmark must
  // gain for a check to go (docs/performance.md).
  private var tweens: [Tween?] = Array(repeating: nil, count: CameraChannel.allCases.count)
  /// The animations not yet ended, by id in order of start: one per channel at most, and
  /// those that move none, so a search is shorter than a hash.
  private var animations: [(id: Int, animation: Animation)] = []
  /// Animations that move no channel, ending at the next frame (R23).
  private var unmoving: [Int] = []
  private var nextAnimation = 1

  /// Whether any animation runs: a channel animating, or one that moves none waiting for its
  /// final frame.
  var isActive: Bool { !unmoving.isEmpty || tweens.contains { $0 != nil } }

  /// Starts an animation from the camera of `projection` to `destination` (both clamped) on
  /// `channels`; `targetWorld` is `Mercator.worldPoint(destination.target)` when the target
  /// channel is among them. Appends to `due` the completions of animations that this one
  /// ended by replacing their last channel.
  func start(
    channels: CameraChannels, from projection: Projection, to destination: CameraPosition, targetWorld: WorldPoint,
    at time: Double, duration: Double, easing: Easing, completion: ((Bool) -> Void)?,
    due: inout [DueCompletion]
  ) {
    let current = projection.camera
    let id = nextAnimation
    nextAnimation += 1
    var named = 0
    var moves = false
    for channel in CameraChannel.allCases where channels.contains(channel) {
      named += 1
      moves = moves || tweens[channel.rawValue] != nil || !channel.isEqual(current, destination)
    }
    animations.append((id, Animation(remainingChannels: moves ? named : 0, interrupted: false, completion: completion)))
    for channel in CameraChannel.allCases where moves && channels.contains(channel) {
      if let replaced = tweens[channel.rawValue] { end(replaced.animation, interrupted: true, due: &due) }
      let (from, to) = CameraAnimator.endpoints(channel, projection, destination, targetWorld)
      tweens[channel.rawValue] = Tween(
        animation: id, start: time, duration: max(duration, 0), easing: easing, from: from, to: to,
        destination: destination)
    }
    if !moves { unmoving.append(id) }
  }

  /// Stops every channel where it is; returns the completions, all reporting `false`.
  func stopAll() -> [DueCompletion] {
    var due: [DueCompletion] = []
    for id in unmoving {
      guard let position = position(of: id) else { continue }
      animations[position].animation.interrupted = true
      finishIfDone(at: position, due: &due)
    }
    unmoving.removeAll()
    for index in tweens.indices {
      guard let tween = tweens[index] else { continue }
      tweens[index] = nil
      end(tween.animation, interrupted: true, due: &due)
    }
    return due
  }

  /// The camera at `time`: each animating channel's eased value replaces the field of
  /// `camera`. Channels that reach their end are finished, and so are the animations that
  /// move none; their completions are returned.
  func step(_ camera: CameraPosition, at time: Double) -> (camera: CameraPosition, due: [DueCompletion]) {
    var camera = camera
    var due: [DueCompletion] = []
    for id in unmoving {
      if let position = position(of: id) { finishIfDone(at: position, due: &due) }
    }
    unmoving.removeAll()
    for channel in CameraChannel.allCases {
      guard let tween = tweens[channel.rawValue] else { continue }
      let progress = tween.duration > 0 ? (time - tween.start) / tween.duration : 1
      if progress < 1 {
        let eased = tween.easing.value(at: progress)
        CameraAnimator.apply(channel, tween.from + (tween.to - tween.from) * eased, to: &camera)
      } else {
        CameraAnimator.apply(channel, from: tween.destination, to: &camera)
        tweens[channel.rawValue] = nil
        end(tween.animation, interrupted: false, due: &due)
      }
    }
    return (camera, due)
  }

  /// Ends one channel of the animation `id`; appends its completion to `due` if that was its last.
  private func end(_ id: Int, interrupted: Bool, due: inout [DueCompletion]) {
    guard let position = position(of: id) else { return }
    animations[position].animation.remainingChannels -= 1
    animations[position].animation.interrupted = animations[position].animation.interrupted || interrupted
    finishIfDone(at: position, due: &due)
  }

  /// Removes the animation at `position` in ``animations`` if no channel of it is left;
  /// appends its completion to `due`.
  private func finishIfDone(at position: Int, due: inout [DueCompletion]) {
    guard animations[position].animation.remainingChannels <= 0 else { return }
    let animation = animations.remove(at: position).animation
    guard let completion = animation.completion else { return }
    due.append((completion, !animation.interrupted))
  }

  /// Where the animation `id` is in ``animations``, if it has not ended.
  private func position(of id: Int) -> Int? {
    animations.firstIndex { $0.id == id }
  }

  /// A channel's start and end values; the target moves the short way around the world and
  /// the bearing the short way around the circle. The start is the camera of `projection`,
  /// whose target's world point it already holds; `b` is the world point of `to`'s target.
  private static func endpoints(
    _ channel: CameraChannel, _ projection: Projection, _ to: CameraPosition, _ b: WorldPoint
  )
    -> (SIMD2<Double>, SIMD2<Double>)
  {
    let from = projection.camera
    switch channel {
    case .target:
      let a = projection.targetWorld
      return (SIMD2(a.x, a.y), SIMD2(a.x + Mercator.wrappedDelta(from: a.x, to: b.x), b.y))
    case .zoom: return (SIMD2(from.zoom, 0), SIMD2(to.zoom, 0))
    case .bearing:
      let delta = CameraPosition.wrapBearing(to.bearing - from.bearing + 180) - 180
      return (SIMD2(from.bearing, 0), SIMD2(from.bearing + delta, 0))
    case .tilt: return (SIMD2(from.tilt, 0), SIMD2(to.tilt, 0))
    }
  }

  private static func apply(_ channel: CameraChannel, from destination: CameraPosition, to camera: inout CameraPosition)
  {
    switch channel {
    case .target: camera.target = destination.target
    case .zoom: camera.zoom = destination.zoom
    case .bearing: camera.bearing = destination.bearing
    case .tilt: camera.tilt = destination.tilt
    }
  }

  private static func apply(_ channel: CameraChannel, _ value: SIMD2<Double>, to camera: inout CameraPosition) {
    switch channel {
    case .target: camera.target = Mercator.coordinate(WorldPoint(x: value.x, y: value.y))
    case .zoom: camera.zoom = value.x
    case .bearing: camera.bearing = CameraPosition.wrapBearing(value.x)
    case .tilt: camera.tilt = value.x
    }
  }
}
