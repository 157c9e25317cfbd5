import Foundation
import Testing

@testable import WaymarkServe

/// Requests whose framing is ambiguous (two hosts, two lengths, a length and chunks) are
/// refused with 400 and their connection closed, whatever the route: a proxy that read them
/// otherwise than the server would smuggle a request past it.
@Suite struct RequestFramingTests {
  /// The head of a request to `target` with `headers`, each `Name: value`.
  static func head(_ method: String, _ target: String, _ headers: [String]) -> Data {
    Data(("\(method) \(target) HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n").utf8)
  }

  @Test func twoHostHeadersAreRefused() throws {
    let map = try ServedMap()
    let port = map.server.port
    let answer = map.client.raw(
      Self.head("GET", map.target("/state"), ["Host: 127.0.0.1:\(port)", "Host: evil.example:\(port)"]))
    #expect(answer?.status == 400)
    #expect((answer?.json["error"] as? String)?.contains("2 Host headers") == true)
  }

  @Test func contentLengthsThatDifferAreRefusedAndTheInputDoesNotRun() throws {
    let map = try ServedMap()
    _ = map.input(#"{"kind":"clock","paused":true}"#)
    let before = try #require(map.state()["t"] as? Double)
    let body = #"{"kind":"advance","seconds":5}"#
    let answer = map.client.raw(
      Self.head(
        "POST", map.target("/input"),
        [
          "Host: 127.0.0.1:\(map.server.port)", "Content-Type: application/json", "Content-Length: \(body.utf8.count)",
          "Content-Length: 3",
        ]) + Data(body.utf8))
    #expect(answer?.status == 400)
    #expect((answer?.json["error"] as? String)?.contains("Content-Length headers differ") == true)
    #expect(map.state()["t"] as? Double == before, "the input did not run")
  }

  @Test func contentLengthWithTransferEncodingIsRefused() throws {
    let map = try ServedMap()
    let body = #"{"kind":"tap","x":5,"y":5}"#
    let chunked = String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
    let answer = map.client.raw(
      Self.head(
        "POST", map.target("/input"),
        [
          "Host: 127.0.0.1:\(map.server.port)", "Content-Type: application/json", "Content-Length: 4",
          "Transfer-Encoding: chunked",
        ]) + Data(chunked.utf8))
    #expect(answer?.status == 400)
    #expect((answer?.json["error"] as? String)?.contains("both Content-Length and Transfer-Encoding") == true)
  }

  @Test func theConnectionClosesAfterTheRefusalSoNothingAfterItIsRead() throws {
    let map = try ServedMap()
    let port = map.server.port
    let smuggled = Self.head("GET", map.target("/state"), ["Host: 127.0.0.1:\(port)"])
    let connection = try #require(map.client.connect())
    connection.send(
      Self.head("GET", map.target("/state"), ["Host: 127.0.0.1:\(port)", "Host: 127.0.0.1:\(port)"]) + smuggled)
    let answered = String(decoding: connection.receiveAll(), as: UTF8.self)
    #expect(answered.components(separatedBy: "HTTP/1.1 ").count - 1 == 1, "one answer: \(answered.prefix(300))")
    #expect(answered.hasPrefix("HTTP/1.1 400"))
  }

  @Test func oneHostAndOneLengthStillFrameARequest() throws {
    let map = try ServedMap()
    #expect(map.input(#"{"kind":"tap","x":5,"y":5}"#)?.status == 200)
    let body = #"{"kind":"tap","x":5,"y":5}"#
    let repeated = map.client.raw(
      Self.head(
        "POST", map.target("/input"),
        [
          "Host: 127.0.0.1:\(map.server.port)", "Content-Type: application/json", "Content-Length: \(body.utf8.count)",
          "Content-Length: \(body.utf8.count)", "Connection: close",
        ]) + Data(body.utf8))
    #expect(repeated?.status == 200, "the same length twice is one length")
  }
}
