import Testing

@testable import WaymarkCore

/// `add_markers` reserves before each call: many small calls must not reallocate (and copy
/// the whole array) every time, as `reserveCapacity` of an exact size would.
@Suite struct ArrayReserveTests {
  @Test func manySmallReservationsReallocateOnlyLogarithmicallyOften() {
    var array: [Int] = []
    var reallocations = 0
    for call in 0..<1_000 {
      let before = array.capacity
      array.reserveGeometrically(forMore: 3)
      if array.capacity != before { reallocations += 1 }
      #expect(array.capacity >= array.count + 3, "call \(call)")
      array.append(contentsOf: [call, call, call])
    }
    #expect(reallocations <= 13, "\(reallocations) reallocations for 1,000 calls")
  }

  @Test func roomAlreadyThereChangesNothing() {
    var array = [1, 2, 3]
    array.reserveCapacity(100)
    let capacity = array.capacity
    array.reserveGeometrically(forMore: 10)
    array.reserveGeometrically(forMore: -5)
    #expect(array.capacity == capacity)
    #expect(array == [1, 2, 3])
  }
}
