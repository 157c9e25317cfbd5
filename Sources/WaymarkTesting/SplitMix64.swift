/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast, seeded 64-bit generator, so a
/// test or a benchmark sees the same "random" markers, cameras and taps on every run and
/// every machine (no system randomness).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator; the same seed gives the same sequence.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform double in `[0, 1)` from the top 53 bits (not `Double.random`, whose algorithm
  /// belongs to the standard library and may change).
  public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// A uniform double in `[low, high)`.
  public mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }
}
