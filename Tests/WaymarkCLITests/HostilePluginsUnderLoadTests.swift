import Foundation
import Testing

/// Runaway plugins are stopped on a loaded machine too: each runs in its own `waymark run`
/// while CPU-bound processes compete for every core, and each run must end by itself with
/// the plugin's `plugin_error` (its time budget, its memory cap or Lua's stack limit). Under
/// load, a deep recursion used to hang: the watchdog re-signalled the thread while liblua
/// copied its stack, and the handler re-marked every frame at each signal (issue 30).
@Suite(.serialized) struct HostilePluginsUnderLoadTests {
  /// The body of the plugin's `did_tap_marker(map, marker)`.
  static let runaways: [(name: String, body: String)] = [
    ("endless loop", "while true do end"),
    ("deep recursion", "local function deeper(n) return 1 + deeper(n + 1) end return deeper(1) > 0"),
    ("deep recursion, call first", "local function deeper(n) return deeper(n + 1) + 1 end return deeper(1) > 0"),
    ("string growth", "local s = 'x' while true do s = s .. s end"),
    ("table growth", "local t, i = {}, 0 while true do i = i + 1 t[i] = { i } end"),
    ("loop in a coroutine", "coroutine.wrap(function() while true do end end)()"),
    (
      "coroutines yielding forever",
      "local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end"
    ),
    ("gsub bomb", "local s = string.rep('a', 1 << 16) while true do s = s:gsub('.', function(c) return c end) end"),
    ("backtracking pattern", "return string.rep('a', 1 << 20):match('.-.-.-b') ~= nil"),
    ("loop swallowing its stops", "while true do pcall(function() while true do end end) end"),
    ("looping message handler", "xpcall(function() while true do end end, function() while true do end end)"),
    (
      "looping sort comparator",
      "local t = {} for i = 1, 1000 do t[i] = i end table.sort(t, function() while true do end end)"
    ),
    (
      "recursion through __index",
      "local t = setmetatable({}, { __index = function(t, k) return t[k .. 'x'] end }) return t.a ~= nil"
    ),
    (
      "looping __close",
      "do local c <close> = setmetatable({}, { __close = function() while true do end end }) end"
    ),
    ("compiling forever", "while true do load('return ' .. string.rep('1 + ', 10000) .. '1') end"),
    ("huge repetition", "return #string.rep('x', 1 << 40) > 0"),
  ]

  /// Longer than any run should take on the busiest machine: past it the run is a hang.
  static let killAfter: TimeInterval = 120

  @Test func everyRunawayEndsWithItsPluginErrorBesideBusyProcesses() throws {
    let busy = try (0..<max(2, ProcessInfo.processInfo.activeProcessorCount)).map { _ in try Self.startBusyProcess() }
    defer {
      for process in busy {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
    for runaway in Self.runaways {
      let run = try Self.runPlugin(runaway.body)
      #expect(!run.hung, "\(runaway.name): still running after \(Int(Self.killAfter)) s")
      #expect(run.status == 0, "\(runaway.name): exit \(run.status): \(run.stderr)")
      #expect(
        run.stderr.contains("plugin_error: hostile did_tap_marker: "), "\(runaway.name): \(run.stderr)")
    }
  }

  /// A process that keeps a core busy until it is killed.
  static func startBusyProcess() throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "while :; do :; done"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Runs a script whose only marker is tapped once, with the plugin `hostile` whose
  /// `did_tap_marker` is `body`; kills it past `killAfter`.
  static func runPlugin(_ body: String) throws -> (status: Int32, stderr: String, hung: Bool) {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugins = folder.appendingPathComponent("plugins/hostile")
    try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
    try "local p = {}\nfunction p.did_tap_marker(map, marker)\n  \(body)\nend\nreturn p\n".write(
      to: plugins.appendingPathComponent("hostile.lua"), atomically: true, encoding: .utf8)
    try """
    local map = waymark.map{ plugins = { "plugins/hostile" } }
    local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
    map:tap(m)
    """.write(to: folder.appendingPathComponent("scenario.lua"), atomically: true, encoding: .utf8)
    let errors = folder.appendingPathComponent("stderr.txt")
    #expect(FileManager.default.createFile(atPath: errors.path, contents: nil))
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["run", "scenario.lua", "--trace", "none"]
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: errors)
    process.standardInput = FileHandle.nullDevice
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    let hung = ended.wait(timeout: .now() + killAfter) == .timedOut
    if hung {
      kill(process.processIdentifier, SIGKILL)
      ended.wait()
    }
    let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    return (process.terminationStatus, stderr, hung)
  }
}
