import Foundation

/// A deadline for a whole request: from the moment a connection opens (or its previous answer
/// was sent) the client has ``limit`` seconds to send a request's headers and body, however
/// it spaces the bytes. The library's own timeout counts idleness only, so a client sending a
/// byte every few seconds would otherwise hold its connection for ever; past the deadline its
/// socket is shut down, and the library closes the connection as if the client had left.
///
/// Once a request is whole it is off the clock: the answer may take as long as the map needs,
/// and an event stream lasts as long as its client reads it.
final class RequestDeadlines: @unchecked Sendable {
  /// Seconds a request may take to arrive.
  let limit: Double
  private let condition = NSCondition()
  /// Every open connection's socket and, while it is receiving a request, its deadline.
  private var connections: [UInt: (socket: Int32, deadline: ContinuousClock.Instant?)] = [:]
  private var isStopped = false
  private let clock = ContinuousClock()

  /// Deadlines of `limit` seconds, watched on a thread of their own until ``stop()``.
  init(limit: Double) {
    self.limit = limit
    let thread = Thread { [self] in watch() }
    thread.name = "waymark-serve-deadlines"
    thread.start()
  }

  /// A connection opened on `socket`: its first request's deadline starts now.
  func opened(_ connection: OpaquePointer, socket: Int32) {
    condition.lock()
    defer { condition.unlock() }
    connections[UInt(bitPattern: connection)] = (socket, clock.now + .seconds(limit))
  }

  /// The request on `connection` is whole (or refused before its body): off the clock.
  func received(_ connection: OpaquePointer) { setDeadline(of: connection, to: nil) }

  /// The answer on `connection` is done: the next request on it starts its deadline now.
  func answered(_ connection: OpaquePointer) { setDeadline(of: connection, to: clock.now + .seconds(limit)) }

  /// The connection closed. The library calls this before it closes the socket, so a socket
  /// shut down here is never one reused by a newer connection.
  func closed(_ connection: OpaquePointer) {
    condition.lock()
    defer { condition.unlock() }
    connections[UInt(bitPattern: connection)] = nil
  }

  /// Ends the watch.
  func stop() {
    condition.lock()
    defer { condition.unlock() }
    isStopped = true
    condition.signal()
  }

  private func setDeadline(of connection: OpaquePointer, to deadline: ContinuousClock.Instant?) {
    condition.lock()
    defer { condition.unlock() }
    connections[UInt(bitPattern: connection)]?.deadline = deadline
  }

  /// Shuts down the sockets whose deadline passed, under the lock (see ``closed(_:)``), every
  /// quarter of the limit (at most half a second): a connection is closed at most that late.
  private func watch() {
    condition.lock()
    defer { condition.unlock() }
    while !isStopped {
      let now = clock.now
      for (key, connection) in connections {
        guard let deadline = connection.deadline, deadline <= now else { continue }
        shutdown(connection.socket, Int32(SHUT_RDWR))
        connections[key]?.deadline = nil
      }
      _ = condition.wait(until: Date(timeIntervalSinceNow: min(limit / 4, 0.5)))
    }
  }
}
