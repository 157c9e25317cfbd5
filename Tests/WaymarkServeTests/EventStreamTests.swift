import Foundation
import Testing

@testable import WaymarkServe

/// One client's queue of Server-Sent Events: what it holds while its client reads.
@Suite struct EventStreamTests {
  /// A reader that always lags a little (its queue never empties) must not make the stream
  /// keep every byte it ever sent.
  @Test func aReaderThatLagsWithoutCatchingUpHoldsABoundedQueue() {
    let stream = EventStream(capacity: 100_000)
    let size = 1000
    func chunk(_ number: Int) -> [UInt8] { Array(repeating: UInt8(number % 251), count: size) }
    for number in 0..<50 { #expect(stream.offer(chunk(number))) }  // 50,000 bytes always waiting
    var buffer = [UInt8](repeating: 0, count: size)
    var largest = 0
    for number in 0..<5_000 {  // 5 MB through the stream
      #expect(stream.offer(chunk(number + 50)))
      let count = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, count: size) }
      #expect(count == size)
      #expect(buffer == chunk(number), "bytes come out in the order offered")
      largest = max(largest, stream.heldBytes)
    }
    #expect(largest <= 2 * stream.capacity, "held \(largest) bytes")
  }
}
