import Foundation
import WaymarkScenarios
import WaymarkScripting

@testable import WaymarkServe

/// A live map served on loopback at a free port: a script with two markers and a window
/// plugin in a temporary folder (removed when released).
final class ServedMap {
  let folder: String
  let server: LiveMapServer
  let client: LoopbackClient

  /// A window plugin that counts taps, carried across reloads by save_state / on_reload.
  static func windowPlugin(_ label: String) -> String {
    """
    local p = { name = "window" }
    local taps = 0
    function p.did_tap_marker(map, marker) taps = taps + 1 end
    function p.marker_info_window(map, marker) return "\(label) taps=" .. taps end
    function p.save_state() return { taps = taps } end
    function p.on_reload(old, map) taps = old.taps end
    return p
    """
  }

  static let script = """
    local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 4 }, plugins = { "plugins" } }
    map:add_marker{ id = "home", position = { lat = 0, lng = 0 }, title = "Home" }
    map:add_marker{ id = "east", position = { lat = 0, lng = 10 }, title = "East" }
    """

  init(script: String = ServedMap.script, streamCapacity: Int? = nil, requestDeadline: Double? = nil) throws {
    folder = "/tmp/wm-serve-" + String(UUID().uuidString.prefix(8)).lowercased()
    try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
    try Self.windowPlugin("v1").write(toFile: folder + "/plugins/window.lua", atomically: true, encoding: .utf8)
    try script.write(toFile: folder + "/demo.lua", atomically: true, encoding: .utf8)
    var options = ScriptOptions()
    options.plugins.timeBudget = .milliseconds(250)
    var configuration = LiveMapServer.Configuration()
    configuration.port = 0
    if let streamCapacity { configuration.streamCapacity = streamCapacity }
    if let requestDeadline { configuration.requestDeadline = requestDeadline }
    server = try LiveMapServer(script: folder + "/demo.lua", options: options, configuration: configuration)
    client = LoopbackClient(port: server.port)
  }

  deinit {
    server.stop()
    try? FileManager.default.removeItem(atPath: folder)
  }

  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
  }

  /// `path?token=...` (and more query after `&`).
  func target(_ path: String, _ query: String = "") -> String {
    "\(path)?token=\(server.token)\(query.isEmpty ? "" : "&" + query)"
  }

  /// GET /state as JSON.
  func state() -> [String: Any] { client.get(target("/state"))?.json ?? [:] }

  /// POSTs an input; the answer.
  func input(_ json: String) -> LoopbackClient.Response? { client.post(target("/input"), json) }

  /// The screen point of a drawn marker, from /state.
  func point(of id: String) -> (x: Double, y: Double)? {
    let markers = state()["markers"] as? [[String: Any]] ?? []
    guard let marker = markers.first(where: { $0["id"] as? String == id }),
      let x = marker["x"] as? Double, let y = marker["y"] as? Double
    else { return nil }
    return (x, y)
  }

  /// The event names of an /input answer's records.
  static func events(_ response: LoopbackClient.Response?) -> [String] {
    (response?.json["records"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
  }
}
