import Foundation
import Testing

/// What a person meets at the command line: help, errors with suggestions, exit codes.
@Suite struct CommandLineTests {
  @Test func helpListsEveryCommandWithExamples() throws {
    let result = try CLI.run(["--help"])
    #expect(result.status == 0)
    for word in [
      "run SCRIPT", "check [PATH]...", "types", "--version", "examples:", "waymark run scripts/marker_events.lua",
    ] {
      #expect(result.stdout.contains(word), "\(word)")
    }
  }

  @Test func runHelpListsEveryOptionWithAnExample() throws {
    let result = try CLI.run(["run", "--help"])
    #expect(result.status == 0)
    for option in [
      "--plugins DIR", "--policy NAME", "--trace FORMAT", "--trace-file PATH", "--frames", "--watch",
      "--time-limit SECONDS", "--budget MS", "examples:",
    ] {
      #expect(result.stdout.contains(option), "\(option)")
    }
  }

  @Test func versionPrintsTheVersion() throws {
    let result = try CLI.run(["--version"])
    #expect(result.status == 0 && result.stdout.hasPrefix("waymark 0."))
    #expect(result.stdout.hasSuffix(" (unknown commit)\n"), "a build that was not installed: \(result.stdout)")
  }

  @Test func noArgumentsIsBadUsage() throws {
    let result = try CLI.run([])
    #expect(result.status == 2)
    #expect(result.stderr.contains("usage: waymark <command>"))
  }

  @Test func aWrongCommandSuggestsTheRightOne() throws {
    let result = try CLI.run(["rnu", "scripts/marker_events.lua"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("waymark: unknown command 'rnu'; did you mean 'run'?"))
  }

  @Test func aWrongOptionSuggestsTheRightOne() throws {
    let result = try CLI.run(["run", "scripts/marker_events.lua", "--plugin", "plugins"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("unknown option '--plugin' for 'waymark run'; did you mean --plugins?"))
    let trace = try CLI.run(["run", "scripts/marker_events.lua", "--trace", "jsno"])
    #expect(trace.status == 2)
    #expect(trace.stderr.contains("--trace jsno: expected text, json or none; did you mean json?"))
    let policy = try CLI.run(["run", "scripts/marker_events.lua", "--policy", "andriod"])
    #expect(policy.stderr.contains("did you mean android?"))
    let missing = try CLI.run(["run"])
    #expect(missing.status == 2 && missing.stderr.contains("missing SCRIPT"))
  }

  @Test func aMissingScriptNamesThePathItLookedFor() throws {
    let result = try CLI.run(["run", "scripts/nope.lua"])
    #expect(result.status == 3)
    #expect(result.stderr.contains("scripts/nope.lua: no such file (looked for \(CLI.root.path)/scripts/nope.lua)"))
    #expect(!result.stderr.contains("Fatal error"))
  }

  @Test func badScriptFilesGetOneLineEach() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data().write(to: folder.appendingPathComponent("empty.lua"))
    try Data([0x1b, 0x4c, 0x75, 0x61, 0x54, 0x00, 0x19, 0x93]).write(to: folder.appendingPathComponent("binary.lua"))
    try Data(repeating: 0x2d, count: 5 << 20).write(to: folder.appendingPathComponent("huge.lua"))
    try Data("local map = waymark.map{\nmap:tap(\n".utf8).write(to: folder.appendingPathComponent("syntax.lua"))
    try Data("local map = waymark.map{}\nlocal x = nil\nprint(x.field)\n".utf8).write(
      to: folder.appendingPathComponent("runtime.lua"))
    let cases: [(String, String)] = [
      ("empty.lua", "empty.lua: is empty"),
      ("binary.lua", "binary.lua:1: is a binary file, not Lua source (a NUL byte at column 6)"),
      ("huge.lua", "huge.lua: is too large (5242880 bytes; the limit is 4194304)"),
      (".", ".: is a directory, not a Lua file"),
      ("syntax.lua", "syntax.lua:3: unexpected symbol near <eof>"),
      ("runtime.lua", "runtime.lua:3: attempt to index a nil value (local 'x')"),
    ]
    for (file, message) in cases {
      let result = try CLI.run(["run", file, "--trace", "none"], in: folder)
      #expect(result.status == 3, "\(file)")
      #expect(result.stderr.contains(message), "\(file): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count <= 2, "one line: \(result.stderr)")
    }
  }

  @Test func aLatin1ScriptRunsAndChecksAsLuaTakesIt() throws {
    // Sources are bytes, as in Lua (docs/plugins.md, "Sandbox"): three of Lua's own test
    // files hold Latin-1 bytes in strings and comments.
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try
      (Data("local map = waymark.map{} -- caf".utf8) + Data([0xE9]) + Data("\nlocal s = \"caf".utf8) + Data([0xE9])
      + Data("\"\nexpect_eq(#s, 4)\nexpect_eq(s:byte(4), 233)\nprint(string.format('%q', s))\n".utf8)).write(
        to: folder.appendingPathComponent("latin1.lua"))
    let run = try CLI.run(["run", "latin1.lua"], in: folder)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let check = try CLI.run(["check", "latin1.lua"], in: folder)
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    let piped = try CLI.shell(
      #"printf 'print(#"\351", ("\351"):byte())' | '"# + CLI.executable.path + "' run - --trace json", in: folder)
    #expect(piped.output.contains(#""message":"1\t233""#), "\(piped.output)")
  }

  @Test func aFailedExpectationNamesTheScriptLineAndExitsOne() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = """
      local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 5 } }
      expect_eq(map.camera.zoom, 6, "zoom")
      expect_near(map.camera.zoom, 5.5, 0.1)
      expect(map.selected_marker ~= nil, "something is selected")
      expect_eq(map.camera.zoom, 5)
      """
    try Data(script.utf8).write(to: folder.appendingPathComponent("expect.lua"))
    let result = try CLI.run(["run", "expect.lua", "--trace", "json"], in: folder)
    #expect(result.status == 1)
    #expect(result.stderr.contains("expectation failed: expect.lua:2: zoom: expected 6, got 5"))
    #expect(result.stderr.contains("expectation failed: expect.lua:3: expected 5.5 ± 0.1, got 5"))
    #expect(result.stderr.contains("expectation failed: expect.lua:4: something is selected"))
    #expect(result.stderr.contains("3 expectation(s) failed"))
    #expect(
      result.stdout.contains(
        #"{"t":0,"event":"expect_failed","message":"expect.lua:2: zoom: expected 6, got 5","file":"expect.lua","line":2}"#
      ))
  }

  @Test func aHandleOfAReplacedMapStopsTheScriptWithItsLine() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = """
      local m1 = waymark.map{}
      local add = m1.add_marker
      waymark.map{}
      add(m1, { position = { lat = 0, lng = 0 } })
      """
    try Data(script.utf8).write(to: folder.appendingPathComponent("stale.lua"))
    let result = try CLI.run(["run", "stale.lua", "--trace", "none"], in: folder)
    #expect(result.status == 3)
    #expect(
      result.stderr
        == "waymark run: stale.lua:4: this map was replaced by a later waymark.map{}; a script drives one map at a time\n"
    )
  }

  @Test func aScriptThatNeverSettlesIsStoppedAtTheTimeLimit() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = """
      local map = waymark.map{}
      local function spin() map:animate({ bearing = map.camera.bearing + 90 }, { duration = 1, on_complete = spin }) end
      spin()
      map:settle()
      """
    try Data(script.utf8).write(to: folder.appendingPathComponent("forever.lua"))
    let result = try CLI.run(["run", "forever.lua", "--trace", "none", "--time-limit", "30"], in: folder)
    #expect(result.status == 3)
    #expect(
      result.stderr.contains(
        "forever.lua:4: the map did not settle within 30 s of virtual time; still pending: camera animation"))
  }

  @Test func anEndlessLoopInAScriptIsStopped() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("local map = waymark.map{}\nwhile true do end\n".utf8).write(to: folder.appendingPathComponent("loop.lua"))
    let result = try CLI.run(["run", "loop.lua", "--trace", "none", "--script-budget", "1"], in: folder)
    #expect(result.status == 3)
    #expect(result.stderr.contains("loop.lua:2:"))
    #expect(result.stderr.contains("the script ran past its time budget of 1 s (an endless loop?)"))
  }

  @Test func anUnwritableTraceFileIsAClearError() throws {
    let result = try CLI.run(["run", "scripts/min_max_zoom.lua", "--trace-file", "/nonexistent/folder/trace.jsonl"])
    #expect(result.status == 3)
    #expect(result.stderr.contains("cannot write the trace to /nonexistent/folder/trace.jsonl"))
  }

  @Test func theTraceGoesToAFileInEitherFormat() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("trace.jsonl").path
    let result = try CLI.run([
      "run", "scripts/marker_events.lua", "--trace", "json", "--trace-file", file, "--budget", "2000",
    ])
    #expect(result.status == 0 && result.stdout.isEmpty)
    let golden = try String(
      contentsOf: CLI.root.appendingPathComponent("Tests/WaymarkCLITests/Golden/marker_events.jsonl"), encoding: .utf8)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == golden)
    let text = try CLI.run(["run", "scripts/marker_events.lua", "--budget", "2000"])
    #expect(text.stdout.hasPrefix("       t  event                        subject      details\n"))
    #expect(text.stdout.contains("×180 frames"))
    let frames = try CLI.run(["run", "scripts/marker_events.lua", "--frames", "--budget", "2000"])
    #expect(!frames.stdout.contains("frames"))
    #expect(frames.stdout.split(separator: "\n").count > text.stdout.split(separator: "\n").count + 300)
    let none = try CLI.run(["run", "scripts/marker_events.lua", "--trace", "none", "--budget", "2000"])
    #expect(none.stdout.isEmpty && none.status == 0)
  }

  @Test func policyAndPluginsComeFromTheCommandLine() throws {
    let ios = try CLI.run(["run", "scripts/fit_bounds.lua", "--trace", "json", "--budget", "2000"])
    let web = try CLI.run(["run", "scripts/fit_bounds.lua", "--trace", "json", "--policy", "web", "--budget", "2000"])
    #expect(ios.status == 0 && web.status == 0)
    let extra = try CLI.run([
      "run", "scripts/fit_bounds.lua", "--trace", "json", "--plugins", "plugins/drag_logger", "--budget", "2000",
    ])
    #expect(extra.stdout.contains(#""event":"plugin_loaded","plugin":"drag_logger""#))
  }
}

@Suite struct BadPluginTests {
  @Test func aMissingPluginFolderStopsTheRunWithThePath() throws {
    let result = try CLI.run(["run", "scripts/fit_bounds.lua", "--plugins", "nope"])
    #expect(result.status == 3)
    #expect(result.stderr.contains("--plugins nope: no such folder or .lua file (looked for \(CLI.root.path)/nope)"))
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("local map = waymark.map{ plugins = { \"missing\" } }\n".utf8).write(
      to: folder.appendingPathComponent("s.lua"))
    let script = try CLI.run(["run", "s.lua"], in: folder)
    #expect(script.status == 3)
    #expect(script.stderr.contains("s.lua:1: waymark.map: plugins[1]: no such folder missing (looked for"))
  }

  @Test func badPluginFilesAreReportedAndTheMapGoesOn() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugins = folder.appendingPathComponent("plugins")
    try FileManager.default.createDirectory(
      at: plugins.appendingPathComponent("folder.lua"), withIntermediateDirectories: true)
    try Data().write(to: plugins.appendingPathComponent("empty.lua"))
    try Data([0x1b, 0x4c, 0x75, 0x61, 0x54, 0x00]).write(to: plugins.appendingPathComponent("binary.lua"))
    try Data(repeating: 0x2d, count: 5 << 20).write(to: plugins.appendingPathComponent("huge.lua"))
    try Data("return { did_tap_marker = function() return true end }\n".utf8).write(
      to: plugins.appendingPathComponent("good.lua"))
    try Data(
      "local map = waymark.map{ plugins = { \"plugins\" } }\nlocal m = map:add_marker{ position = { lat = 0, lng = 0 } }\nmap:tap(m)\nexpect(map.selected_marker == nil, \"the good plugin handled the tap\")\n"
        .utf8
    ).write(to: folder.appendingPathComponent("s.lua"))
    let result = try CLI.run(["run", "s.lua", "--trace", "none", "--budget", "2000"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("plugins/empty.lua: error: is empty"))
    #expect(
      result.stderr.contains("plugins/binary.lua:1: error: is a binary file, not Lua source (a NUL byte at column 6)"))
    #expect(result.stderr.contains("plugins/huge.lua: error: is too large (5242880 bytes; the limit is 4194304)"))
    #expect(!result.stderr.contains("folder.lua"))
  }
}
