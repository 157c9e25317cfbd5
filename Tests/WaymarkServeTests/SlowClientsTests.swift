import Foundation
import Testing

@testable import WaymarkServe

/// Slow clients cannot starve the others (docs/serve.md, "Secure by default"): there is room
/// for far more connections than stall, and a request must arrive whole within the request
/// deadline however its bytes are spaced.
@Suite struct SlowClientsTests {
  /// Half a request, and the rest of a header that never ends, a byte at a time.
  static let halfRequest = Data("GET /sta".utf8)
  static let trickle = Array("GET /state HTTP/1.1\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 4096)

  @Test func aNormalRequestIsAnsweredWhile200StallAnd64Trickle() throws {
    let map = try ServedMap()
    var stalled: [LoopbackClient.Connection] = []
    for _ in 0..<200 {
      let connection = try #require(map.client.connect())
      connection.send(Self.halfRequest)
      stalled.append(connection)
    }
    var tricklers: [LoopbackClient.Connection] = []
    for _ in 0..<64 { tricklers.append(try #require(map.client.connect())) }
    for byte in 0..<4 {
      for connection in tricklers { connection.send(Data([Self.trickle[byte]])) }
      Thread.sleep(forTimeInterval: 0.3)
    }
    let answer = try #require(map.client.get(map.target("/state")), "answered while 264 clients are slow")
    #expect(answer.status == 200)
    #expect((answer.json["markers"] as? [[String: Any]])?.count == 2)
    let home = try #require(map.point(of: "home"))
    #expect(
      ServedMap.events(map.input(#"{"kind":"tap","x":\#(home.x),"y":\#(home.y - 10)}"#)).first == "did_tap_marker")
    withExtendedLifetime((stalled, tricklers)) {}
  }

  @Test func aTrickledRequestIsClosedAtTheDeadlineThoughItIsNeverIdle() throws {
    let map = try ServedMap(requestDeadline: 1)
    let connection = try #require(map.client.connect())
    var closed = false
    // A byte every 0.2 s, well inside the 30 s idle timeout, for at most 30 s.
    for byte in Self.trickle.prefix(150) where !closed {
      connection.send(Data([byte]))
      Thread.sleep(forTimeInterval: 0.2)
      var poller = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
      closed = poll(&poller, 1, 0) == 1 && connection.receive() == nil
    }
    #expect(closed, "the server closed the connection before the trickle ended")
    #expect(map.state()["markers"] is [Any], "and still answers")
  }

  @Test func anEventStreamOutlivesTheRequestDeadline() throws {
    let map = try ServedMap(requestDeadline: 1)
    let reader = try #require(EventReader(map.client, map.target("/events")))
    #expect(reader.status == 200)
    Thread.sleep(forTimeInterval: 2)
    let home = try #require(map.point(of: "home"))
    _ = map.input(#"{"kind":"tap","x":\#(home.x),"y":\#(home.y - 10)}"#)
    let events = reader.events { $0.json["event"] as? String == "did_tap_marker" }
    #expect(events.last?.json["event"] as? String == "did_tap_marker", "the stream was not cut at the deadline")
  }
}
