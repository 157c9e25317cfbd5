// The benchmarks' side of loopback HTTP: one kept-alive connection for posts, and a reader
// that counts Server-Sent Events as fast as they come.

import Foundation

/// Opens a TCP connection to 127.0.0.1:port.
func connectLoopback(_ port: Int) throws -> Int32 {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = UInt16(port).bigEndian
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let status = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
  }
  var one: Int32 = 1
  setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  guard fd >= 0, status == 0 else { throw BenchmarkFailure(description: "cannot connect to 127.0.0.1:\(port)") }
  return fd
}

/// Posts JSON on one kept-alive connection and reads each answer whole (by Content-Length).
struct KeepAliveClient {
  let socket: Int32
  let port: Int
  private var buffer: [UInt8] = []

  init(port: Int) throws {
    socket = try connectLoopback(port)
    self.port = port
  }

  /// The body of the answer to `POST target` with `json`.
  mutating func post(_ target: String, _ json: String) throws -> String {
    let request = Array(
      "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)"
        .utf8)
    guard send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
      throw BenchmarkFailure(description: "the server closed the connection")
    }
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    while true {
      if let end = buffer.firstRange(of: separator) {
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).lowercased()
        let length =
          head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        if buffer.count - end.upperBound >= length {
          let body = String(decoding: buffer[end.upperBound..<(end.upperBound + length)], as: UTF8.self)
          buffer.removeFirst(end.upperBound + length)
          return body
        }
      }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = recv(socket, &chunk, chunk.count, 0)
      guard count > 0 else { throw BenchmarkFailure(description: "the server closed the connection") }
      buffer += chunk[0..<count]
    }
  }
}

/// Reads an event stream on its own thread and counts its `data:` lines (undoing the
/// chunked transfer encoding first, whose framing may fall inside a line).
final class EventCounter: @unchecked Sendable {
  private let condition = NSCondition()
  private var received = 0

  init(port: Int, target: String) throws {
    let fd = try connectLoopback(port)
    let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
    _ = send(fd, request, request.count, Int32(MSG_NOSIGNAL))
    // The head comes once the server has subscribed the stream: from then on, nothing is missed.
    let crlf: [UInt8] = [13, 10], marker = Array("\ndata: ".utf8)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var head: [UInt8] = []
    while head.firstRange(of: crlf + crlf) == nil {
      let count = recv(fd, &chunk, chunk.count, 0)
      guard count > 0 else { throw BenchmarkFailure(description: "the event stream closed before its head") }
      head += chunk[0..<count]
    }
    let rest = Array(head[head.firstRange(of: crlf + crlf)!.upperBound...])
    Thread { [self, chunk] in
      var chunk = chunk
      var framed = rest  // bytes as received, after the head
      var payload: [UInt8] = []  // the stream's bytes, not yet counted
      while true {
        while let line = framed.firstRange(of: crlf),
          let size = Int(String(decoding: framed[..<line.lowerBound], as: UTF8.self), radix: 16),
          framed.count >= line.upperBound + size + 2
        {
          payload += framed[line.upperBound..<(line.upperBound + size)]
          framed.removeFirst(line.upperBound + size + 2)
        }
        var found = 0, index = payload.startIndex
        while let range = payload[index...].firstRange(of: marker) {
          found += 1
          index = range.upperBound
        }
        payload = Array(payload[max(index, payload.endIndex - (marker.count - 1))...])
        condition.lock()
        received += found
        condition.broadcast()
        condition.unlock()
        let count = recv(fd, &chunk, chunk.count, 0)
        if count <= 0 { break }
        framed += chunk[0..<count]
      }
      close(fd)
    }.start()
  }

  /// The `data:` lines received so far.
  var count: Int {
    condition.lock()
    defer { condition.unlock() }
    return received
  }

  /// Waits until `total` lines have come, or until 60 s pass without a new one (the stream
  /// is broken: the caller's check then fails).
  func wait(until total: Int) {
    condition.lock()
    defer { condition.unlock() }
    var last = received, deadline = Date(timeIntervalSinceNow: 60)
    while received < total {
      _ = condition.wait(until: deadline)
      if received != last {
        last = received
        deadline = Date(timeIntervalSinceNow: 60)
      } else if Date() >= deadline {
        return
      }
    }
  }
}
