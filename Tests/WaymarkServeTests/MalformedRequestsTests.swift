import Foundation
import Synchronization
import Testing

@testable import WaymarkServe

/// 10,000 malformed requests on loopback, a few at a time: the server answers each (or closes
/// it), and afterwards it still answers and the map is intact.
@Suite struct MalformedRequestsTests {
  /// A malformed request, chosen by number: broken HTTP, broken bodies, wrong tokens, odd
  /// methods and paths, oversized headers.
  static func request(_ number: Int, token: String) -> Data {
    // Bytes that differ from request to request (a multiplicative hash of the position).
    let junk = Data((0..<(number * 7 % 300)).map { UInt8(truncatingIfNeeded: ($0 &+ number) &* 2_654_435_761 >> 13) })
    let body = String(decoding: junk, as: UTF8.self)
    switch number % 12 {
    case 0: return junk
    case 1: return Data("GET\r\n\r\n".utf8)
    case 2: return Data("GET /state?token=\(token) HTTP/9.9\r\nHost: x\r\n\r\n".utf8)
    case 3:
      return Data("POST /input?token=\(token) HTTP/1.1\r\nHost: x\r\nContent-Length: \(junk.count)\r\n\r\n".utf8) + junk
    case 4: return Data("POST /input?token=\(token) HTTP/1.1\r\nHost: x\r\nContent-Length: 99\r\n\r\n{\"kind\"".utf8)
    case 5: return Data("GET /state?token=\(String(token.reversed())) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    case 6: return Data("BREW /\(body.prefix(20)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    case 7:
      return Data("GET /state?token=\(token) HTTP/1.1\r\n\(String(repeating: "X", count: 70_000)): y\r\n\r\n".utf8)
    case 8: return Data("POST /input?token=\(token) HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".utf8)
    case 9:
      return Data(
        "POST /input?token=\(token) HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{\"kind\":\"tap\",\"x\":1e999,\"y\":\"\u{0}\"}   "
          .utf8)
    case 10: return Data("GET /%2e%2e/%ff/../state?token=\(token) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    default: return Data("POST /input?token=\(token) HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8) + junk
    }
  }

  @Test func tenThousandMalformedRequestsLeaveTheServerAnsweringAndTheMapIntact() throws {
    let map = try ServedMap()
    let before = map.state()
    let token = map.server.token
    let client = LoopbackClient(port: map.server.port, timeout: 10)
    let total = 10_000, workers = 8
    // Each worker collects its own statuses and hands them over under the lock.
    let statuses = Mutex<[[Int]]>(Array(repeating: [], count: workers))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var mine: [Int] = []
      for number in stride(from: worker, to: total, by: workers) {
        mine.append(client.raw(Self.request(number, token: token))?.status ?? 0)
      }
      statuses.withLock { $0[worker] = mine }
    }
    let all = statuses.withLock { $0.flatMap { $0 } }
    #expect(all.count == total)
    #expect(!all.contains(200), "nothing malformed was taken as valid")
    #expect(!all.contains(500), "no internal error")
    #expect(Set(all).isSubset(of: [0, 400, 403, 404, 405, 413, 431, 505]), "\(Set(all).sorted())")
    let after = map.state()
    #expect(
      NSDictionary(dictionary: after["camera"] as? [String: Any] ?? [:]).isEqual(
        to: before["camera"] as? [String: Any] ?? ["": 0]))
    #expect((after["markers"] as? [[String: Any]])?.count == 2)
    #expect(after["selected"] is NSNull)
    let home = try #require(map.point(of: "home"))
    #expect(
      ServedMap.events(map.input(#"{"kind":"tap","x":\#(home.x),"y":\#(home.y - 10)}"#)).first == "did_tap_marker")
  }
}
