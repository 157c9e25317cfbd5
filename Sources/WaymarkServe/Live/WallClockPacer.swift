/// How a live map's virtual clock follows the wall clock: paused or playing, at a speed.
/// Each tick owes the virtual time that passed on the wall since the last tick, times the
/// speed, at most ``longestStep`` (a stalled process skips time rather than racing through
/// an hour of frames).
struct WallClockPacer: Sendable {
  /// Whether virtual time stands still (input still runs; `advance` steps it).
  var isPaused = false
  /// Virtual seconds per wall second, in ``speeds``.
  var speed = 1.0
  /// The most virtual seconds one tick advances.
  static let longestStep = 1.0
  /// The speeds the page offers and `clock` input accepts.
  static let speeds: ClosedRange<Double> = 0.05...20
  private var lastTick: Double?

  /// The virtual seconds owed at wall time `now` (seconds, monotonic), and the tick noted.
  mutating func due(at now: Double) -> Double {
    defer { lastTick = now }
    guard let lastTick, !isPaused else { return 0 }
    return min(max(now - lastTick, 0) * speed, Self.longestStep)
  }

  /// Wall seconds until virtual time reaches `virtualDelay` from now (nil while paused).
  func wallDelay(untilVirtual virtualDelay: Double) -> Double? {
    isPaused ? nil : max(virtualDelay, 0) / speed
  }

  /// The pacer as the page shows it.
  var state: ClockState { ClockState(paused: isPaused, speed: speed) }
}

/// The live clock's settings, as JSON: `{ "paused": false, "speed": 1 }`.
struct ClockState: Codable, Sendable, Hashable {
  /// Whether virtual time stands still.
  var paused: Bool
  /// Virtual seconds per wall second.
  var speed: Double
}
