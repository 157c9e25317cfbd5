// test_suite_1000: 1,000 tutorial-sized test files run by `waymark test -j 2`, against the
// same files run one `waymark run` process at a time.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `test_suite_1000` benchmark.
enum TestSuiteBenchmark {
  static let files = 1000
  static let jobs = 2

  /// The README tutorial's plugin and scenario, as a test file and its plugin folder.
  static let plugin = """
    local plugin = { name = "first" }
    function plugin.did_tap_marker(map, marker)
      if marker.title and marker.title:find("^Secret") then
        print("you found " .. marker.id)
        return true
      end
    end
    function plugin.marker_info_window(map, marker)
      return {
        { text = marker.title, style = "title" },
        { text = "opened at " .. map.time .. " s", style = "caption" },
      }
    end
    return plugin
    """
  static func scenario(_ index: Int) -> String {
    """
    local map = waymark.map{
      camera = { target = { lat = 48.8584, lng = 2.2945 }, zoom = 13 },
      plugins = { "my_plugins" },
    }
    local tower = map:add_marker{ id = "tower", position = { lat = 48.8584, lng = 2.2945 }, title = "Eiffel Tower \(index)" }
    local cave = map:add_marker{ id = "cave", position = { lat = 48.8606, lng = 2.3376 }, title = "Secret cave" }
    map:tap(tower)
    expect_eq(map.info_window.kind, "window", "the plugin's window")
    map:settle()
    map:tap(cave)
    expect(map.info_window.marker == tower, "the secret tap was handled: the tower's window stays")
    map:settle()
    """
  }

  static var benchmark: Benchmark {
    Benchmark(
      name: "test_suite_1000",
      summary: "1,000 tutorial-sized test files with waymark test -j 2 vs one waymark run process at a time",
      run: run)
  }

  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let waymark = try executable()
    let folder = try PluginBenchFolder([:])
    try FileManager.default.createDirectory(atPath: folder.path + "/my_plugins", withIntermediateDirectories: true)
    try plugin.write(toFile: folder.path + "/my_plugins/first.lua", atomically: true, encoding: .utf8)
    let names = (0..<files).map { String(format: "t%04d_test.lua", $0) }
    for (index, name) in names.enumerated() {
      try scenario(index).write(toFile: folder.path + "/" + name, atomically: true, encoding: .utf8)
    }
    context.progress("test_suite_1000: \(files) files, waymark test -j \(jobs) then one waymark run at a time")
    let samples = try context.measure { _ in
      let suite = try seconds {
        let status = try launch(waymark, ["test", ".", "-j", "\(jobs)"], in: folder.path)
        guard status == 0 else { throw BenchmarkFailure(description: "test_suite_1000: waymark test exited \(status)") }
      }
      let oneByOne = try seconds {
        for name in names {
          let status = try launch(waymark, ["run", name, "--trace", "none"], in: folder.path)
          guard status == 0 else { throw BenchmarkFailure(description: "test_suite_1000: \(name) exited \(status)") }
        }
      }
      return ["suite": suite, "sequential": oneByOne]
    }
    return [
      Figure(
        name: "test_suite_1000", unit: "s", samples: samples["suite"],
        baseline: "the same files, one `waymark run` process at a time", baselineSamples: samples["sequential"],
        ratioMeaning: "waymark test -j 2 / one process at a time (lower is better)",
        goal: Goal(text: "<= 10 s") { value, _ in value <= 10 })
    ]
  }

  /// Runs `executable` with `arguments` in `folder` (posix_spawn, as a shell does; output
  /// discarded) and waits for it; returns its exit status.
  static func launch(_ executable: String, _ arguments: [String], in folder: String) throws -> Int32 {
    let previous = FileManager.default.currentDirectoryPath
    guard FileManager.default.changeCurrentDirectoryPath(folder) else {
      throw BenchmarkFailure(description: "cannot enter \(folder)")
    }
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd in Int32(0)...2 {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else { throw BenchmarkFailure(description: "cannot start \(executable): \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }

  /// Debian's `busted`, the baseline of the busted-language benchmarks, or nil when missing.
  static var busted: String? {
    ["/usr/bin/busted", "/usr/local/bin/busted"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// The `waymark` built beside this benchmark (built now if missing).
  static func executable() throws -> String {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("waymark").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    #if DEBUG
      let configuration = "debug"
    #else
      let configuration = "release"
    #endif
    printError("test_suite_1000: building waymark (\(configuration)) beside waymark-bench\n")
    let swift = ["/opt/swift/usr/bin/swift", "/usr/bin/swift", "/usr/local/bin/swift"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let swift else { throw BenchmarkFailure(description: "test_suite_1000: build waymark first") }
    let status = try launch(swift, ["build", "-c", configuration, "--product", "waymark"], in: root.path)
    guard status == 0, FileManager.default.isExecutableFile(atPath: beside) else {
      throw BenchmarkFailure(
        description:
          "test_suite_1000: no waymark beside waymark-bench; build it: swift build -c release --product waymark")
    }
    return beside
  }
}
