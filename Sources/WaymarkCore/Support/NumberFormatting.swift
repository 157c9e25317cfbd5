/// Formats a number the way Waymark prints it everywhere (messages, traces): integers without
/// a fractional part (`8`, not `8.0`), others with the shortest digits that round-trip, and
/// `nan`, `inf`, `-inf` for the non-finite values.
package func formatNumber(_ value: Double) -> String {
  if value.isNaN { return "nan" }
  if value.isInfinite { return value < 0 ? "-inf" : "inf" }
  if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
  return String(value)
}

/// Formats a number rounded to `digits` decimals, without trailing zeros (`-37.81969`, `4`).
///
/// Traces use this so that the last bits of floating-point arithmetic, which may differ
/// between machines, never show; `-0` prints as `0`.
package func formatNumber(_ value: Double, decimals digits: Int) -> String {
  guard value.isFinite else { return formatNumber(value) }
  return formatNumber(roundNumber(value, decimals: digits))
}

/// `value` rounded to `digits` decimals (`-0` becomes `0`); non-finite values unchanged.
package func roundNumber(_ value: Double, decimals digits: Int) -> Double {
  // From 2^52 on every double is whole: nothing to round, and scaling could overflow to inf.
  guard value.isFinite, abs(value) < 0x1p52 else { return value }
  let scale = decimalScale(digits)
  let rounded = (value * scale).rounded() / scale
  return rounded == 0 ? 0 : rounded
}

/// `value` rounded to `digits` decimals without leaving the half-open range it wraps around
/// in (R20): a value in `range` that rounds up to its upper end becomes the lower end
/// (a bearing of 359.99999999999994 prints 0, not 360; a longitude of 179.9999999 prints
/// -180). Values outside `range` round as usual.
package func roundNumber(_ value: Double, decimals digits: Int, wrappingIn range: Range<Double>) -> Double {
  let rounded = roundNumber(value, decimals: digits)
  return range.contains(value) && rounded >= range.upperBound ? range.lowerBound : rounded
}

/// `value` rounded to `digits` decimals without leaving the closed `range` it lies in: where
/// rounding would cross an end that has more decimals (a tilt clamped to 47.1234567), it
/// rounds toward the inside instead. Values outside `range` round as usual.
package func roundNumber(_ value: Double, decimals digits: Int, within range: ClosedRange<Double>) -> Double {
  let rounded = roundNumber(value, decimals: digits)
  guard range.contains(value), !range.contains(rounded) else { return rounded }
  let scale = decimalScale(digits)
  let inside =
    rounded > range.upperBound ? (value * scale).rounded(.down) / scale : (value * scale).rounded(.up) / scale
  return inside == 0 ? 0 : inside
}

private func decimalScale(_ digits: Int) -> Double {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  return scale
}
