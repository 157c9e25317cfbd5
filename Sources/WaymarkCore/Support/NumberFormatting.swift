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
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  return formatNumber(rounded == 0 ? 0 : rounded)
}
