import Foundation
import Testing

@testable import WaymarkServe

/// Every route of `waymark serve` over HTTP on loopback: the token, the methods, the JSON
/// in and out (docs/serve.md).
@Suite struct RoutesTests {
  @Test func thePageNeedsTheTokenAndLoadsNothingFromElsewhere() throws {
    let map = try ServedMap()
    let page = try #require(map.client.get(map.target("/")))
    #expect(page.status == 200)
    #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
    #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
    #expect(page.headers["referrer-policy"] == "no-referrer", "the URL holds the token")
    let bare = try #require(map.client.get("/"))
    #expect(bare.status == 200, "a bare GET / explains where the token is")
    #expect(bare.text.contains("token") && !bare.text.contains(map.server.token))
    #expect(map.client.get("/?token=wrong")?.status == 403)
    #expect(map.client.get("/?token=")?.status == 403)
  }

  @Test func everyRouteButABarePageAnswers403WithoutTheRightToken() throws {
    let map = try ServedMap()
    let wrong = String(map.server.token.reversed())
    for target in ["/state", "/state?token=\(wrong)", "/events", "/events?token=\(wrong)"] {
      let response = try #require(map.client.get(target))
      #expect(response.status == 403, "\(target)")
      #expect((response.json["error"] as? String)?.contains("token") == true)
    }
    #expect(map.client.post("/input", #"{"kind":"tap","x":1,"y":1}"#)?.status == 403)
    #expect(map.client.post("/input?token=\(wrong)", #"{"kind":"tap","x":1,"y":1}"#)?.status == 403)
    #expect(map.state()["selected"] is NSNull, "nothing was tapped")
  }

  @Test func unknownRoutesAre404AndNoFileIsEverServed() throws {
    let map = try ServedMap()
    for path in [
      "/nope", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/state/", "//state", "/demo.lua",
      "/plugins/window.lua", "/index.html",
    ] {
      let response = try #require(map.client.get(map.target(path)))
      #expect(response.status == 404, "\(path)")
      #expect(!response.text.contains("waymark.map"), "no file content")
    }
  }

  @Test func wrongMethodsAre405WithAllow() throws {
    let map = try ServedMap()
    let post = try #require(map.client.request("POST", map.target("/state"), body: Data("{}".utf8)))
    #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
    let get = try #require(map.client.get(map.target("/input")))
    #expect(get.status == 405 && get.headers["allow"] == "POST")
    #expect(map.client.request("DELETE", map.target("/"))?.status == 405)
    #expect(map.client.request("PUT", map.target("/events"), body: Data())?.status == 405)
  }

  @Test func stateHasTheReplayShapePlusSelected() throws {
    let map = try ServedMap()
    let state = map.state()
    #expect(state["t"] is Double)
    let camera = try #require(state["camera"] as? [String: Any])
    #expect(Set(camera.keys) == ["lat", "lng", "zoom", "bearing", "tilt"])
    #expect(camera["zoom"] as? Double == 4)
    let markers = try #require(state["markers"] as? [[String: Any]])
    #expect(markers.compactMap { $0["id"] as? String } == ["home", "east"])
    #expect(markers.allSatisfy { $0["x"] is Double && $0["y"] is Double })
    #expect(state["infoWindow"] is NSNull && state["selected"] is NSNull)
    let plugins = try #require(state["plugins"] as? [[String: Any]])
    #expect(plugins.first?["name"] as? String == "window" && plugins.first?["version"] as? Int == 1)
  }

  @Test func aTapAnswersItsRecordsAndTheStateFollows() throws {
    let map = try ServedMap()
    let home = try #require(map.point(of: "home"))
    let tap = try #require(map.input(#"{"kind":"tap","x":\#(home.x),"y":\#(home.y - 10)}"#))
    #expect(tap.status == 200 && tap.json["ok"] as? Bool == true)
    #expect(ServedMap.events(tap).starts(with: ["did_tap_marker", "marker_info_window"]))
    let records = try #require(tap.json["records"] as? [[String: Any]])
    #expect(records.first?["marker"] as? String == "home")
    #expect(records.first { $0["event"] as? String == "marker_info_window" }?["plugin"] as? String == "window")
    let state = map.state()
    #expect(state["selected"] as? String == "home")
    let window = try #require(state["infoWindow"] as? [String: Any])
    #expect(window["marker"] as? String == "home" && window["kind"] as? String == "window")
    #expect(window["text"] as? String == "v1 taps=1")
  }

  @Test func everyInputKindDrivesTheMap() throws {
    let map = try ServedMap(
      script: ServedMap.script
        + "map.my_location_enabled = true\nmap.my_location = { lat = 1, lng = 1 }\nmap.compass_button = true\n")
    let gestures: [(String, String)] = [
      (#"{"kind":"long_press","x":5,"y":5}"#, "did_long_press_at_coordinate"),
      (#"{"kind":"double_tap","x":100,"y":100}"#, "will_move"),
      (#"{"kind":"pan","dx":30,"dy":0}"#, "will_move"),
      (#"{"kind":"pinch","zoom_by":-1,"x":195,"y":422,"duration":0.2}"#, "will_move"),
      (#"{"kind":"rotate","degrees":30}"#, "will_move"),
      (#"{"kind":"tilt","degrees":10}"#, "will_move"),
      (#"{"kind":"tap_compass"}"#, "will_move"),  // R69: the rotation above shows the compass
      (#"{"kind":"tap_my_location_button"}"#, "did_tap_my_location_button"),
    ]
    for (body, event) in gestures {
      let answer = map.input(body)
      #expect(answer?.status == 200, "\(body): \(answer?.text ?? "no answer")")
      #expect(ServedMap.events(answer).contains(event), "\(body) made \(ServedMap.events(answer))")
      if event == "will_move" {
        #expect(ServedMap.events(map.input(#"{"kind":"advance","seconds":2}"#)).contains("idle_at_camera_position"))
      }
    }
    _ = map.input(#"{"kind":"advance","seconds":5}"#)
    let home = try #require(map.point(of: "home"))
    let windows: [(String, String)] = [
      (#"{"kind":"tap","x":\#(home.x),"y":\#(home.y - 10)}"#, "did_tap_marker"),
      (#"{"kind":"tap_info_window"}"#, "did_tap_info_window"),
      (#"{"kind":"long_press_info_window"}"#, "did_long_press_info_window"),
    ]
    for (body, event) in windows {
      #expect(ServedMap.events(map.input(body)).contains(event), "\(body)")
    }
  }

  @Test func aDragMovesADraggableMarkerToThePoint() throws {
    let map = try ServedMap(
      script: ServedMap.script + "map:marker('east').draggable = true\n")
    let answer = map.input(#"{"kind":"drag","marker":"east","x":100,"y":200,"duration":0.5}"#)
    #expect(ServedMap.events(answer).first == "did_begin_dragging_marker")
    _ = map.input(#"{"kind":"advance","seconds":1}"#)
    let east = try #require(map.point(of: "east"))
    #expect(abs(east.x - 100) < 0.01 && abs(east.y - 200) < 0.01)
  }

  @Test func theClockCanBePausedAndSped() throws {
    let map = try ServedMap()
    let paused = try #require(map.input(#"{"kind":"clock","paused":true,"speed":2}"#))
    #expect(paused.status == 200)
    #expect((paused.json["clock"] as? [String: Any])?["paused"] as? Bool == true)
    let before = try #require(map.state()["t"] as? Double)
    _ = map.input(#"{"kind":"advance","seconds":1.5}"#)
    let after = try #require(map.state()["t"] as? Double)
    #expect(after == before + 1.5, "paused: only advance moves time")
    #expect((map.state()["clock"] as? [String: Any])?["speed"] as? Double == 2)
    #expect(map.input(#"{"kind":"clock","speed":1000}"#)?.status == 400)
  }

  @Test func badBodiesGet400WithAMessage() throws {
    let map = try ServedMap()
    let cases: [(String, String)] = [
      ("", "JSON"),
      ("not json", "JSON"),
      ("[1, 2]", "JSON object"),
      (#"{"x": 1}"#, "\"kind\""),
      (#"{"kind": 3}"#, "kind"),
      (#"{"kind":"tapp","x":1,"y":2}"#, "did you mean tap"),
      (#"{"kind":"tap","x":1}"#, "\"y\""),
      (#"{"kind":"tap","x":"1","y":2}"#, "x: expected a number"),
      (#"{"kind":"drag","marker":"nowhere","x":1,"y":2}"#, "nowhere"),
      (#"{"kind":"tap_info_window"}"#, "tap_info_window: no info window is shown"),
      (#"{"kind":"advance","seconds":-1}"#, "negative"),
      (#"{"kind":"advance","seconds":1e300}"#, "is more than 600"),
      (#"{"kind":"advance","seconds":601}"#, "advance.seconds: 601 is more than 600"),
      (#"{"kind":"clock"}"#, "paused or speed"),
    ]
    for (body, words) in cases {
      let answer = try #require(map.input(body))
      #expect(answer.status == 400, "\(body)")
      #expect(answer.json["ok"] as? Bool == false)
      #expect((answer.json["error"] as? String)?.contains(words) == true, "\(body): \(answer.text)")
    }
    #expect(map.point(of: "home") != nil && map.state()["t"] is Double, "the map is intact")
  }

  @Test func bodiesOver64KiBAreRefused() throws {
    let map = try ServedMap()
    let large = Data(repeating: UInt8(ascii: " "), count: (64 << 10) + 1)
    let declared = try #require(
      map.client.request("POST", map.target("/input"), body: large, headers: ["Content-Type: application/json"]))
    #expect(declared.status == 413)
    #expect((declared.json["error"] as? String)?.contains("64 KiB") == true)
    // A chunked body that outgrows the cap: the connection is closed, nothing is applied.
    var chunked = Data(
      "POST \(map.target("/input")) HTTP/1.1\r\nHost: 127.0.0.1:\(map.server.port)\r\nTransfer-Encoding: chunked\r\n\r\n"
        .utf8)
    for _ in 0..<80 { chunked += Data("400\r\n".utf8) + Data(repeating: 32, count: 1024) + Data("\r\n".utf8) }
    chunked += Data("0\r\n\r\n".utf8)
    let answer = map.client.raw(chunked)
    #expect(answer == nil || answer?.status == 413)
    let fits = Data(#"{"kind":"advance","seconds":0}"#.utf8) + Data(repeating: 32, count: 60 << 10)
    let json = ["Content-Type: application/json"]
    #expect(map.client.request("POST", map.target("/input"), body: fits, headers: json)?.status == 200)
  }

  @Test func tokensCompareWholly() {
    #expect(Routes.constantTimeEquals("abc", "abc"))
    #expect(!Routes.constantTimeEquals("abc", "abd"))
    #expect(!Routes.constantTimeEquals("abc", "abcd"))
    #expect(LiveMapServer.randomToken().count == 32)
    #expect(LiveMapServer.randomToken() != LiveMapServer.randomToken())
  }
}
