/// An error from the map's entry points. Its description names the field and the value.
///
/// Nothing is applied when an entry point throws.
public enum MapError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A value outside its domain: `field` is a dotted path (`marker.opacity`), `value` as given.
  case invalidValue(field: String, value: String, reason: String)
  /// A value that breaks its relation to another field: `field`'s `value` `relation`
  /// (`is greater than`) `other`'s `otherValue`.
  case invalidRelation(field: String, value: String, relation: String, other: String, otherValue: String)
  /// The marker is on another map (R2): remove it there first.
  case markerOnAnotherMap(marker: String)
  /// The marker or overlay is not on this map.
  case notOnThisMap(what: String)
  /// An input (tap, long press, gesture) was sent while a delegate callback was running.
  case reentrantInput(action: String, callback: String)
  /// A tap or long press on the info window while none is shown.
  case noInfoWindow(action: String)
  /// `settle()` found work still pending after its virtual-time limit.
  case didNotSettle(limit: Double, pending: String)
  /// `advance` or `settle` stopped at virtual `time` before its end: it had run
  /// ``MapView/taskLimit`` frames and timers, or its caller's budget ran out (`reason`).
  case stopped(action: String, time: Double, reason: String, pending: String)

  /// The message a person reads.
  public var description: String {
    switch self {
    case .invalidValue(let field, let value, let reason): "\(field): \(value) \(reason)"
    case .invalidRelation(let field, let value, let relation, let other, let otherValue):
      "\(field): \(value) \(relation) \(other) \(otherValue)"
    case .markerOnAnotherMap(let marker): "marker \(marker) is on another map; remove it there first (R2)"
    case .notOnThisMap(let what): "\(what) is not on this map"
    case .reentrantInput(let action, let callback):
      "\(action) cannot be called from inside \(callback); schedule it on the clock instead"
    case .noInfoWindow(let action): "\(action): no info window is shown"
    case .didNotSettle(let limit, let pending):
      "the map did not settle within \(formatNumber(limit)) s of virtual time; still pending: \(pending)"
    case .stopped(let action, let time, let reason, let pending):
      "\(action): stopped at \(formatNumber(time)) s of virtual time: \(reason); still pending: \(pending)"
    }
  }
}

extension MapError {
  /// An error for a number that must be finite.
  static func requireFinite(_ value: Double, _ field: @autoclosure () -> String) throws(MapError) {
    guard value.isFinite else {
      throw .invalidValue(field: field(), value: formatNumber(value), reason: "is not a finite number")
    }
  }

  /// An error for a number that must be finite and not negative (durations, sizes, radii).
  static func requireNonNegative(_ value: Double, _ field: @autoclosure () -> String) throws(MapError) {
    try requireFinite(value, field())
    guard value >= 0 else { throw .invalidValue(field: field(), value: formatNumber(value), reason: "is negative") }
  }

  /// An error for a number that must be finite, not negative and at most `largest` (sizes).
  static func requireNonNegative(_ value: Double, atMost largest: Double, _ field: @autoclosure () -> String)
    throws(MapError)
  {
    try requireNonNegative(value, field())
    guard value <= largest else {
      throw .invalidValue(field: field(), value: formatNumber(value), reason: "is more than \(formatNumber(largest))")
    }
  }

  /// An error for a duration (an animation's, a gesture's, a drag's): finite, not negative,
  /// and at most ``VirtualClock/longestDuration``, so the frames it causes are bounded.
  static func requireDuration(_ value: Double, _ field: @autoclosure () -> String) throws(MapError) {
    try requireNonNegative(value, field())
    guard value <= VirtualClock.longestDuration else {
      throw .invalidValue(
        field: field(), value: formatNumber(value),
        reason: "is more than \(formatNumber(VirtualClock.longestDuration)) (the longest duration, ten minutes)")
    }
  }

  /// An error for a number that must lie in `range`.
  static func require(_ value: Double, in range: ClosedRange<Double>, _ field: @autoclosure () -> String)
    throws(MapError)
  {
    try requireFinite(value, field())
    guard range.contains(value) else {
      throw .invalidValue(
        field: field(), value: formatNumber(value),
        reason: "is outside \(formatNumber(range.lowerBound))...\(formatNumber(range.upperBound))")
    }
  }
}
