import Foundation
import Testing

@testable import WaymarkServe

/// `GET /events`: the trace as it happens, one `data:` line of `--trace json` per record; slow
/// clients are dropped instead of slowing the map; plugins reload into the served map.
@Suite struct EventsTests {
  @Test func recordsStreamAsTheyHappenInTheTraceJSONForm() throws {
    let map = try ServedMap()
    let events = try #require(EventReader(map.client, map.target("/events")))
    #expect(events.status == 200 && events.headers.contains("text/event-stream"))
    let home = try #require(map.point(of: "home"))
    let answer = try #require(map.input(#"{"kind":"tap","x":\#(home.x),"y":\#(home.y - 10)}"#))
    let answered = try #require(answer.json["records"] as? [[String: Any]])
    let streamed = events.events { $0.json["event"] as? String == answered.last?["event"] as? String }
    let taps = streamed.drop { $0.json["event"] as? String != "did_tap_marker" }
    #expect(taps.count == answered.count)
    for (event, record) in zip(taps, answered) {
      #expect(event.data.count == 1, "one data line per record")
      #expect(Self.canonical(event.json) == Self.canonical(record), "the same record as the answer")
    }
    #expect(taps.first?.data.first?.hasPrefix(#"{"t":"#) == true, "keys in the trace's order")
    let ids = streamed.compactMap(\.id)
    #expect(ids == Array(ids.first!...ids.last!), "ids count up by one")
  }

  /// A JSON object with its keys sorted, to compare values whatever the key order.
  static func canonical(_ object: [String: Any]) -> String {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map {
      String(decoding: $0, as: UTF8.self)
    }
      ?? ""
  }

  @Test func aReconnectingClientResumesAfterItsLastEvent() throws {
    let map = try ServedMap()
    let first = try #require(EventReader(map.client, map.target("/events", "since=0")))
    let kept = first.events { $0.json["event"] as? String == "plugin_loaded" }
    let last = try #require(kept.last?.id)
    _ = map.input(#"{"kind":"long_press","x":5,"y":5}"#)
    let again = try #require(EventReader(map.client, map.target("/events"), headers: ["Last-Event-ID: \(last)"]))
    let resumed = again.events { $0.json["event"] as? String == "did_long_press_at_coordinate" }
    #expect(resumed.first?.id == last + 1)
  }

  @Test func aClientThatFallsBehindIsDroppedAndTheMapGoesOn() throws {
    let map = try ServedMap(streamCapacity: 4096)
    let idle = try #require(EventReader(map.client, map.target("/events")))
    // Thousands of camera frames while the client reads nothing.
    _ = map.input(#"{"kind":"clock","paused":true}"#)
    for _ in 0..<20 {
      #expect(map.input(#"{"kind":"pan","dx":40,"dy":0,"duration":10}"#)?.status == 200)
      #expect(map.input(#"{"kind":"advance","seconds":10}"#)?.status == 200)
    }
    #expect(map.state()["camera"] != nil, "the map still answers")
    let seen = idle.events { $0.name == "dropped" }
    #expect(seen.last?.name == "dropped")
  }

  /// Once the kept history is more than a client's queue holds, asking for all of it (the
  /// page's `?since=0`, a `Last-Event-ID` resumption) gets the most recent records that fit,
  /// after a `missed` event counting the others: never only `dropped`, retry after retry.
  @Test func aLongHistoryGivesItsMostRecentRecordsAndCountsTheOthers() throws {
    let map = try ServedMap(streamCapacity: 8192)
    _ = map.input(#"{"kind":"clock","paused":true}"#)
    for _ in 0..<3 {
      #expect(map.input(#"{"kind":"pan","dx":40,"dy":0,"duration":2}"#)?.status == 200)
      #expect(map.input(#"{"kind":"advance","seconds":3}"#)?.status == 200)
    }
    _ = map.input(#"{"kind":"long_press","x":5,"y":5}"#)
    for attempt in ["since=0", "since=0", "since=3"] {
      let reader = try #require(EventReader(map.client, map.target("/events", attempt)))
      let seen = reader.events { $0.json["event"] as? String == "did_long_press_at_coordinate" || $0.name == "dropped" }
      #expect(!seen.contains { $0.name == "dropped" }, "\(attempt): the client is not dropped")
      let missed = try #require(seen.first, "\(attempt)")
      #expect(missed.name == "missed" && missed.id == nil)
      let ids = seen.dropFirst().compactMap(\.id)
      let asked = attempt == "since=3" ? 3 : 0
      #expect(missed.json["count"] as? Int == (ids.first ?? 0) - asked - 1, "\(attempt): the count of those not sent")
      #expect(ids.count > 10 && ids == Array(ids.first!...ids.last!), "\(attempt): the most recent, in order")
      #expect(seen.last?.json["event"] as? String == "did_long_press_at_coordinate")
    }
  }

  @Test func aVanishedClientIsForgotten() throws {
    let map = try ServedMap(streamCapacity: 4096)
    for _ in 0..<10 {
      let gone = try #require(EventReader(map.client, map.target("/events")))
      _ = gone
    }
    for _ in 0..<5 { _ = map.input(#"{"kind":"pan","dx":40,"dy":0,"duration":2}"#) }
    _ = map.input(#"{"kind":"advance","seconds":3}"#)
    #expect(map.state()["markers"] != nil)
  }

  @Test func anEditedPluginIsHotReloadedIntoTheServedMap() throws {
    let map = try ServedMap()
    let events = try #require(EventReader(map.client, map.target("/events")))
    let home = try #require(map.point(of: "home"))
    let tap = #"{"kind":"tap","x":\#(home.x),"y":\#(home.y - 10)}"#
    let close = #"{"kind":"tap","x":5,"y":5}"#
    _ = map.input(tap)
    _ = map.input(close)
    try map.write("plugins/window.lua", ServedMap.windowPlugin("v2"))
    let reloaded = events.events { $0.json["event"] as? String == "plugin_reloaded" }
    #expect(reloaded.last?.json["plugin"] as? String == "window")
    _ = map.input(tap)
    let window = map.state()["infoWindow"] as? [String: Any]
    #expect(window?["text"] as? String == "v2 taps=2", "the same map, the taps carried by on_reload")
    #expect((map.state()["plugins"] as? [[String: Any]])?.first?["version"] as? Int == 2)
    _ = map.input(close)

    try map.write("plugins/window.lua", "local p = {}\nfunction p.marker_info_window(\nreturn p\n")
    let failed = events.events { $0.json["event"] as? String == "plugin_error" }
    let error = try #require(failed.last?.json)
    #expect(error["handler"] as? String == "reload")
    #expect((error["message"] as? String)?.contains("window.lua:3:") == true)
    let plugin = (map.state()["plugins"] as? [[String: Any]])?.first
    #expect(plugin?["version"] as? Int == 2 && (plugin?["error"] as? String)?.contains("window.lua:3:") == true)
    _ = map.input(tap)
    #expect((map.state()["infoWindow"] as? [String: Any])?["text"] as? String == "v2 taps=3", "the old version answers")
  }
}
