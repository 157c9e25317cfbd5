import CMicroHTTPD
import Foundation

/// One client's Server-Sent Events: a bounded queue of bytes between the map's thread, which
/// offers events and never waits, and the client's connection thread, which sends them.
///
/// A client that falls behind (its queue would pass ``capacity``) is dropped: it gets a
/// last `dropped` event, and its browser reconnects with `Last-Event-ID`. A client that
/// vanished is noticed when a write fails (a keep-alive comment goes out every
/// ``keepAlive`` seconds of quiet), and the library then releases the stream.
final class EventStream: @unchecked Sendable {
  /// The most bytes waiting to be sent.
  let capacity: Int
  /// Seconds of quiet after which a comment is sent, to notice vanished clients.
  let keepAlive: Double
  private let condition = NSCondition()
  private var queue: [UInt8] = []
  private var sent = 0
  private var isClosed = false
  private var isReleased = false

  /// A stream holding at most `capacity` unsent bytes.
  init(capacity: Int = 1 << 20, keepAlive: Double = 15) {
    self.capacity = capacity
    self.keepAlive = keepAlive
  }

  /// Whether events can still be offered (not closed, not released by the library).
  var isOpen: Bool {
    condition.lock()
    defer { condition.unlock() }
    return !isClosed && !isReleased
  }

  /// Queues bytes without waiting. False, and nothing queued, if they would pass the
  /// capacity or the stream is closed.
  func offer(_ bytes: [UInt8]) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !isClosed, !isReleased, queue.count - sent + bytes.count <= capacity else { return false }
    queue += bytes
    condition.signal()
    return true
  }

  /// Closes the stream: what is queued, then `last` (whatever the capacity), is sent, then
  /// the response ends.
  func close(last: [UInt8] = []) {
    condition.lock()
    defer { condition.unlock() }
    guard !isClosed else { return }
    isClosed = true
    queue += last
    condition.signal()
  }

  /// Waits for bytes and copies up to `count` of them to `destination`: the number copied,
  /// a keep-alive comment's length after a quiet ``keepAlive``, or nil once closed and sent.
  func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Int? {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: keepAlive)
    while sent == queue.count && !isClosed {
      if !condition.wait(until: deadline) { break }
    }
    if sent == queue.count {
      if isClosed { return nil }
      let comment = Array(": keep-alive\n\n".utf8)
      let length = min(comment.count, count)
      comment.withUnsafeBufferPointer { destination.update(from: $0.baseAddress!, count: length) }
      return length
    }
    let length = min(queue.count - sent, count)
    queue.withUnsafeBufferPointer { destination.update(from: $0.baseAddress! + sent, count: length) }
    sent += length
    releaseSent()
    return length
  }

  /// Lets go of the bytes already sent: all of them once the queue is empty, and otherwise
  /// as soon as they are as many as those still waiting (and at least ``releaseChunk``), so a
  /// client that lags without ever emptying its queue holds at most about twice
  /// ``capacity``, and each byte is moved at most once on average.
  private func releaseSent() {
    if sent == queue.count {
      queue.removeAll(keepingCapacity: queue.capacity <= capacity)
      sent = 0
    } else if sent >= Self.releaseChunk, sent >= queue.count - sent {
      queue.removeFirst(sent)
      sent = 0
    }
  }

  /// The fewest sent bytes released while others still wait (fewer are not worth a move).
  static let releaseChunk = 64 << 10

  /// The bytes the stream holds, sent or not (what it costs in memory, less the array's slack).
  var heldBytes: Int {
    condition.lock()
    defer { condition.unlock() }
    return queue.count
  }

  /// The library's content reader: the stream's next bytes, or the end of the response.
  static let reader: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
    let stream = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
    let destination = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
    guard let count = stream.read(into: destination, count: max) else { return -1 }  // END_OF_STREAM
    return count
  }

  /// The library's release callback: the response is done (sent, or the client left).
  static let release: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let stream = Unmanaged<EventStream>.fromOpaque(context).takeRetainedValue()
    stream.condition.lock()
    stream.isReleased = true
    stream.queue = []
    stream.sent = 0
    stream.condition.unlock()
  }
}
