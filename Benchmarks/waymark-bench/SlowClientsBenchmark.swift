// serve_slow_clients: the slowest of 20 GET /state requests to `waymark serve` on loopback
// while 1,000 clients of the same machine are slow (500 sent half a request line and
// stopped, 500 trickle a header a byte at a time), against the same requests with none.

import Foundation
import WaymarkServe

/// The `serve_slow_clients` benchmark.
enum SlowClientsBenchmark {
  static let slowClients = 1_000
  static let requestsPerRun = 20

  static var benchmark: Benchmark {
    Benchmark(
      name: "serve_slow_clients",
      summary: "the slowest GET /state while 1,000 loopback clients stall or trickle vs with none",
      run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let folder = try ServedFiles(markers: 1)
    defer { folder.remove() }
    let server = try LiveMapServer(script: folder.script, options: folder.options, configuration: .freePort)
    defer { server.stop() }
    let target = "/state?" + (server.url.split(separator: "?").last ?? "")
    context.progress("serve_slow_clients: \(requestsPerRun) requests per run, with and without \(slowClients) slow")
    let samples = try context.measure { _ in
      let alone = try slowest(port: server.port, target: target)
      let slow = try openSlowClients(port: server.port)
      defer { slow.forEach { close($0) } }
      let crowded = try slowest(port: server.port, target: target)
      return ["crowded": crowded * 1e3, "alone": alone * 1e3]
    }
    return [
      Figure(
        name: "serve_slow_clients", unit: "ms", samples: samples["crowded"],
        baseline: "the same requests with no slow client", baselineSamples: samples["alone"],
        ratioMeaning: "the slowest request among 1,000 slow clients / the slowest with none",
        goal: Goal(text: "<= 2 s") { value, _ in value <= 2_000 })
    ]
  }

  /// 1,000 connections: half with half a request line, half with two bytes of a header
  /// whose line never ends (each bounded by the server's request deadline).
  static func openSlowClients(port: Int) throws -> [Int32] {
    var sockets: [Int32] = []
    let trickle = Array("GET /state HTTP/1.1\r\nX-Slow: a".utf8)
    for index in 0..<slowClients {
      let socket = try connectLoopback(port)
      sockets.append(socket)
      let bytes = index % 2 == 0 ? Array("GET /sta".utf8) : Array(trickle.prefix(1))
      _ = send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL))
    }
    // The tricklers' next byte, once every connection is open.
    for (index, socket) in sockets.enumerated() where index % 2 == 1 {
      _ = send(socket, Array(trickle[1...1]), 1, Int32(MSG_NOSIGNAL))
    }
    return sockets
  }

  /// Seconds taken by the slowest of ``requestsPerRun`` requests, each on a new connection.
  static func slowest(port: Int, target: String) throws -> Double {
    var worst = 0.0
    for _ in 0..<requestsPerRun {
      var answer = ""
      worst = max(worst, try seconds { answer = try get(port: port, target: target) })
      guard answer.contains("\"markers\"") else {
        throw BenchmarkFailure(description: "serve_slow_clients: GET /state answered \(answer.prefix(200))")
      }
    }
    return worst
  }

  /// The whole answer to `GET target` (the server closes after it).
  static func get(port: Int, target: String) throws -> String {
    let socket = try connectLoopback(port)
    defer { close(socket) }
    var wait = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
    _ = send(socket, request, request.count, Int32(MSG_NOSIGNAL))
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = recv(socket, &chunk, chunk.count, 0)
      if count <= 0 { break }
      answer += chunk[0..<count]
    }
    return String(decoding: answer, as: UTF8.self)
  }
}
