extension Array {
  /// Makes room for `more` elements beyond `count`, at least doubling the capacity when it
  /// grows: bulk callers that reserve before appending stay amortized even when they come a
  /// few elements at a time (`reserveCapacity` alone allocates exactly, so repeated small
  /// reservations would copy the whole array each time).
  package mutating func reserveGeometrically(forMore more: Int) {
    let needed = count + more
    if capacity < needed { reserveCapacity(Swift.max(needed, 2 * capacity)) }
  }
}
