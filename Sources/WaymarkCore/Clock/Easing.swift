/// How an animation's progress maps to its value over time (R27).
///
/// The curves are Core Animation's named timing functions, cubic Béziers from (0, 0) to (1, 1).
public enum Easing: String, Sendable, CaseIterable {
  /// Constant speed.
  case linear
  /// Slow start and end: cubic-bezier(0.42, 0, 0.58, 1), the default for camera animations.
  case easeInOut = "ease_in_out"
  /// Slow start: cubic-bezier(0.42, 0, 1, 1).
  case easeIn = "ease_in"
  /// Slow end: cubic-bezier(0, 0, 0.58, 1).
  case easeOut = "ease_out"

  /// The eased value of progress `t` (clamped to 0...1).
  package func value(at t: Double) -> Double {
    let t = min(max(t, 0), 1)
    switch self {
    case .linear: return t
    case .easeInOut: return Easing.bezier(t, 0.42, 0, 0.58, 1)
    case .easeIn: return Easing.bezier(t, 0.42, 0, 1, 1)
    case .easeOut: return Easing.bezier(t, 0, 0, 0.58, 1)
    }
  }

  /// Solves a cubic Bézier timing curve for x = t by bisection (fixed iterations: deterministic).
  private static func bezier(_ t: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    func curve(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
      let u = 1 - s
      return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }
    if t == 0 || t == 1 { return t }
    var low = 0.0, high = 1.0
    for _ in 0..<48 {
      let mid = (low + high) / 2
      if curve(mid, x1, x2) < t { low = mid } else { high = mid }
    }
    return curve((low + high) / 2, y1, y2)
  }
}
