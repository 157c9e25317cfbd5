import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `waymark serve SCRIPT --record FILE`: the inputs made in the page become a test file that
/// replays them, passes, keeps its golden, and passes `waymark check` and luacheck.
@Suite struct ServeRecordTests {
  static let script = """
    local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 6 }, plugins = { "window" } }
    map:add_marker{ id = "home", position = { lat = 0, lng = 0 }, title = "Home" }
    map:add_marker{ id = "east", position = { lat = 0.5, lng = 1 }, title = "East", draggable = true }
    map.compass_button = true

    """
  static let window = """
    return { name = "window",
      marker_info_window = function(map, marker) return "window of " .. marker.id end,
      did_tap_marker = function(map, marker) return marker.id == "east" end }
    """

  /// POSTs `json` to the served map's `/input`; the status and the answer.
  func input(_ served: ServeCommandTests.Served, _ json: String) throws -> (status: Int, body: String) {
    let base = String(served.line.dropFirst("serving ".count))
    let url = try #require(URL(string: base.replacingOccurrences(of: "/?token=", with: "/input?token=")))
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(json.utf8)
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var answer: (Int, String) = (0, "")
    URLSession.shared.dataTask(with: request) { data, response, _ in
      answer = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self))
      done.signal()
    }.resume()
    done.wait()
    return answer
  }

  @Test("Every kind of input made in the page is recorded at its virtual time, and the recorded file passes")
  func aClickedSessionBecomesAPassingTest() throws {
    let served = try ServeCommandTests.Served(
      ["--record", "clicked_test.lua"], script: Self.script, files: ["window/window.lua": Self.window])
    let folder = served.folder
    #expect(served.line.hasPrefix("serving http://"), "\(served.line)")
    let inputs = [
      #"{"kind":"clock","paused":true}"#, #"{"kind":"advance","seconds":0.5}"#,
      #"{"kind":"tap","x":195,"y":422}"#, #"{"kind":"advance","seconds":1}"#,
      #"{"kind":"long_press_info_window"}"#, #"{"kind":"tap_info_window"}"#,
      #"{"kind":"pan","dx":40,"dy":-20}"#, #"{"kind":"advance","seconds":1}"#,
      #"{"kind":"pinch","zoom_by":1,"x":150,"y":300}"#, #"{"kind":"rotate","degrees":30}"#,
      #"{"kind":"tilt","degrees":20,"duration":0.25}"#, #"{"kind":"advance","seconds":1.25}"#,
      #"{"kind":"tap_compass"}"#, #"{"kind":"advance","seconds":1}"#,
      #"{"kind":"double_tap","x":100,"y":100}"#, #"{"kind":"advance","seconds":1}"#,
      #"{"kind":"drag","marker":"east","x":120,"y":500,"duration":0.5}"#,
      #"{"kind":"long_press","x":300,"y":700}"#, #"{"kind":"tap","x":5,"y":5}"#,
      #"{"kind":"advance","seconds":2}"#,
    ]
    for json in inputs {
      let (status, body) = try input(served, json)
      #expect(status == 200, "\(json): \(body)")
    }
    let refused = try input(served, #"{"kind":"drag","marker":"nowhere","x":1,"y":1}"#)
    #expect(refused.status == 400, "a refused input is not recorded")
    let (status, errors) = served.stop()
    #expect(status == 0, "\(errors)")
    #expect(errors.contains("recording the inputs made in the page to clicked_test.lua"))
    #expect(errors.contains("wrote clicked_test.lua"))
    let text = try String(contentsOf: folder.appendingPathComponent("clicked_test.lua"), encoding: .utf8)
    for line in [
      "require(\"demo\")", "local map = waymark.current_map()", "map:tap({ x = 195, y = 422 })",
      "map:long_press_info_window()", "map:tap_info_window()", "map:pan({ x = 40, y = -20 }, { duration = 0.5 })",
      "map:pinch(1, { point = { x = 150, y = 300 }, duration = 0.5 })", "map:rotate(30, { duration = 0.5 })",
      "map:tilt(20, { duration = 0.25 })", "map:tap_compass()", "map:double_tap({ x = 100, y = 100 })",
      "map:drag(map:marker(\"east\"), { lat = ",
      "map:long_press({ x = 300, y = 700 })", "map:tap({ x = 5, y = 5 })", "expect_eq(records[#records], {",
    ] {
      #expect(text.contains(line), "\(line)\n\(text)")
    }
    #expect(!text.contains("nowhere"))
    // The times: the clock was paused at once, so each input comes after the advances before it.
    let times = text.split(separator: "\n").filter { $0.hasPrefix("at(") }
    let seconds = times.map { Double($0.dropFirst(3).dropLast()) ?? .nan }
    #expect(seconds.count == 13, "12 inputs and the end: \(times)")
    #expect(seconds == seconds.sorted() && seconds[0] >= 0.5, "\(times)")
    #expect(seconds.last == seconds[11] + 2, "the end: 2 s after the last input, the clock paused")

    let update = try CLI.run(
      ["test", "clicked_test.lua", "--plugins", "plugins", "--golden", "golden", "--update"], in: folder)
    #expect(update.status == 0, "\(update.stdout)\(update.stderr)\n\(text)")
    #expect(update.stdout.contains("wrote golden/clicked_test.jsonl"), "\(update.stdout)")
    let again = try CLI.run(["test", "clicked_test.lua", "--plugins", "plugins", "--golden", "golden"], in: folder)
    #expect(again.status == 0, "\(again.stdout)")
    let check = try CLI.run(["check", "clicked_test.lua"], in: folder)
    #expect(check.status == 0 && check.stdout.isEmpty, "\(check.stdout)\(check.stderr)")
    try FileManager.default.copyItem(
      at: CLI.root.appendingPathComponent(".luacheckrc"), to: folder.appendingPathComponent(".luacheckrc"))
    let luacheck = try CLI.shell("luacheck --no-color clicked_test.lua", in: folder)
    #expect(luacheck.status == 0, "\(luacheck.output)")
  }

  @Test("--record refuses a file that is not beside the script, before serving")
  func theRecordedFileLiesBesideTheScript() throws {
    let served = try ServeCommandTests.Served(["--record", "tests/clicked_test.lua"])
    #expect(served.line.isEmpty)
    let (status, errors) = served.stop()
    #expect(status == 3)
    #expect(errors.contains("--record tests/clicked_test.lua: write the recorded test beside demo.lua"), "\(errors)")
  }
}
