import Foundation
import Testing

@testable import WaymarkServe

/// Pages on other sites cannot reach the live map (docs/serve.md, "Secure by default"): a
/// request naming another host (DNS rebinding) or sent from another origin is refused with a
/// message, an input must be declared JSON, and no answer grants cross-origin access.
@Suite struct ForeignCallersTests {
  @Test func aForeignHostIs403WithAMessageOnEveryRoute() throws {
    let map = try ServedMap()
    let port = map.server.port
    for host in [
      "evil.example:\(port)", "localhost.evil.example:\(port)", "127.0.0.1", "127.0.0.1:\(port + 1)",
      "evil.example", "127.0.0.1:\(port)x", "[::1]", "",
    ] {
      for target in [map.target("/state"), map.target("/map.svg"), map.target("/"), "/", "/nope"] {
        let answer = try #require(map.client.request("GET", target, host: host), "\(host) \(target)")
        #expect(answer.status == 403, "Host \(host) \(target)")
        let error = answer.json["error"] as? String ?? ""
        #expect(error.contains("Host") && error.contains("rebinding"), "\(error)")
        #expect(error.contains("127.0.0.1:\(port)"), "it says which address to use: \(error)")
      }
    }
    let tap = map.client.request(
      "POST", map.target("/input"), body: Data(#"{"kind":"tap","x":195,"y":412}"#.utf8),
      headers: ["Content-Type: application/json"], host: "evil.example:\(port)")
    #expect(tap?.status == 403)
    #expect(map.state()["selected"] is NSNull, "nothing was tapped")
  }

  @Test func theServersOwnNamesAreAnswered() throws {
    let map = try ServedMap()
    let port = map.server.port
    for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LocalHost:\(port)", "[::1]:\(port)"] {
      let answer = map.client.request("GET", map.target("/state"), host: host)
      #expect(answer?.status == 200, "\(host)")
      #expect(answer?.json["markers"] is [Any], "\(host)")
    }
  }

  @Test func aRequestWithoutHostIsRefusedInHTTP11AndAnsweredInHTTP10() throws {
    let map = try ServedMap()
    let modern = map.client.raw(Data("GET \(map.target("/state")) HTTP/1.1\r\nConnection: close\r\n\r\n".utf8))
    #expect(modern?.status == 403, "HTTP/1.1 requires Host")
    #expect((modern?.json["error"] as? String)?.contains("no Host header") == true)
    let old = map.client.raw(Data("GET \(map.target("/state")) HTTP/1.0\r\n\r\n".utf8))
    #expect(old?.status == 200 && old?.json["markers"] is [Any])
  }

  @Test func aForeignOriginIsRefusedAndNothingChanges() throws {
    let map = try ServedMap()
    let port = map.server.port
    let home = try #require(map.point(of: "home"))
    let tap = Data(#"{"kind":"tap","x":\#(home.x),"y":\#(home.y - 10)}"#.utf8)
    for origin in [
      "http://evil.example", "null", "http://127.0.0.1:\(port + 1)", "https://127.0.0.1:\(port)",
      "http://evil.example:\(port)", "http://127.0.0.1:\(port).evil.example",
    ] {
      let answer = try #require(
        map.client.request(
          "POST", map.target("/input"), body: tap, headers: ["Content-Type: application/json", "Origin: \(origin)"]))
      #expect(answer.status == 403, "Origin \(origin)")
      #expect((answer.json["error"] as? String)?.contains("Origin") == true, "\(answer.text)")
      let read = map.client.request("GET", map.target("/state"), headers: ["Origin: \(origin)"])
      #expect(read?.status == 403, "a read from \(origin)")
    }
    #expect(map.state()["selected"] is NSNull, "nothing was tapped")
  }

  @Test func theServersOwnOriginIsAccepted() throws {
    let map = try ServedMap()
    let port = map.server.port
    _ = map.input(#"{"kind":"clock","paused":true}"#)
    let before = try #require(map.state()["t"] as? Double)
    for origin in ["http://127.0.0.1:\(port)", "http://localhost:\(port)"] {
      let answer = map.client.request(
        "POST", map.target("/input"), body: Data(#"{"kind":"advance","seconds":0.5}"#.utf8),
        headers: ["Content-Type: application/json", "Origin: \(origin)"])
      #expect(answer?.status == 200, "\(origin): \(answer?.text ?? "no answer")")
    }
    #expect(map.state()["t"] as? Double == before + 1, "both inputs ran")
  }

  @Test func aPostThatIsNotDeclaredJSONIs415AndNothingChanges() throws {
    let map = try ServedMap()
    let home = try #require(map.point(of: "home"))
    let tap = Data(#"{"kind":"tap","x":\#(home.x),"y":\#(home.y - 10)}"#.utf8)
    for type in [
      "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x", "application/jsonx", nil,
    ] {
      let answer = try #require(
        map.client.request("POST", map.target("/input"), body: tap, headers: type.map { ["Content-Type: \($0)"] } ?? [])
      )
      #expect(answer.status == 415, "\(type ?? "no type")")
      #expect((answer.json["error"] as? String)?.contains("Content-Type: application/json") == true, "\(answer.text)")
    }
    #expect(map.state()["selected"] is NSNull, "nothing was tapped")
    for type in ["application/json; charset=utf-8", "Application/JSON"] {
      let answer = map.client.request(
        "POST", map.target("/input"), body: Data(#"{"kind":"advance","seconds":0}"#.utf8),
        headers: ["Content-Type: \(type)"])
      #expect(answer?.status == 200, "\(type)")
    }
  }

  @Test func noAnswerGrantsCrossOriginAccess() throws {
    let map = try ServedMap()
    let preflight = try #require(
      map.client.request(
        "OPTIONS", map.target("/input"),
        headers: ["Origin: http://evil.example", "Access-Control-Request-Method: POST"]))
    #expect(preflight.status == 403)
    let answers = [
      preflight, map.client.get(map.target("/state")), map.client.get(map.target("/")),
      map.client.post(map.target("/input"), #"{"kind":"advance","seconds":0}"#),
    ]
    for answer in answers {
      #expect(answer?.headers.keys.contains { $0.hasPrefix("access-control-") } == false)
    }
  }

  @Test func anExposedServerAlsoAnswersToAddressLiteralsButNotToNames() throws {
    let exposed = OwnOrigin(address: try ListenAddress("0.0.0.0"))
    #expect(exposed.allows(host: "192.168.1.20:8080", port: 8080))
    #expect(exposed.allows(host: "[fe80::1]:8080", port: 8080))
    #expect(exposed.allows(origin: "http://10.0.0.7:8080", port: 8080))
    #expect(!exposed.allows(host: "mybox.example:8080", port: 8080), "a name can be rebound")
    #expect(!exposed.allows(host: "192.168.1.20:8081", port: 8080))
    let loopback = OwnOrigin(address: try ListenAddress("127.0.0.1"))
    #expect(!loopback.allows(host: "192.168.1.20:8080", port: 8080))
    #expect(loopback.listing(port: 8080) == "127.0.0.1:8080, localhost:8080 or [::1]:8080")
  }
}
