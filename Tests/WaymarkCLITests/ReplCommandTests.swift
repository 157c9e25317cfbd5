import Foundation
import Testing

/// `waymark repl` driven through its standard input (lines in, results and records out), and
/// through a pseudo-terminal for its prompts.
@Suite struct ReplCommandTests {
  static let script = """
    local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 4 }, plugins = { "plugins" } }
    local home = map:add_marker{ id = "home", position = { lat = 0, lng = 0 }, title = "Home" }
    return { home = home }
    """

  static func windowPlugin(_ label: String) -> String {
    "return { name = 'window', marker_info_window = function(map, marker) return '\(label)' end }\n"
  }

  /// A folder with the script and its window plugin.
  static func folder() throws -> URL {
    let folder = try CLI.temporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("plugins"), withIntermediateDirectories: true)
    try Data(windowPlugin("first").utf8).write(to: folder.appendingPathComponent("plugins/window.lua"))
    try Data(script.utf8).write(to: folder.appendingPathComponent("demo.lua"))
    return folder
  }

  /// Runs `waymark repl demo.lua` with `input` on standard input.
  static func repl(_ input: String, in folder: URL) throws -> CLI.Result {
    try CLI.run(["repl", "demo.lua"], in: folder, input: input)
  }

  /// Lines are Lua's bytes, as `lua5.4`'s REPL takes them (docs/plugins.md, "Sandbox"): a
  /// Latin-1 byte typed or piped in stays one byte, and the script may hold such bytes too.
  @Test func linesAndTheScriptKeepTheirBytes() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try (Data("local map = waymark.map{}\nlocal word = \"caf".utf8) + Data([0xE9]) + Data("\"\nreturn {}\n".utf8))
      .write(to: folder.appendingPathComponent("demo.lua"))
    let result = try CLI.shell(
      #"printf '#"\351", ("\351"):byte()\nword:byte(-1), #word\n' | '"# + CLI.executable.path + "' repl demo.lua",
      in: folder)
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("1\t233\n233\t4\n"), "\(result.output)")
  }

  /// The script's top-level locals are reachable from the REPL's lines, live: a line reads the
  /// value the script's closures see now and an assignment sets the script's own local; a
  /// `<const>` local reads but is not assigned; line numbers of the script do not move.
  @Test func theScriptsTopLevelLocalsAreReachable() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      """
      local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 4 } }
      local taps = 0
      local function count() taps = taps + 1 end
      local limit <const> = 3
      map:after(1, count)
      local function boom() error("boom") end
      do local hidden = 1 end
      if taps > 0 then return end
      return { boom = boom }
      """.utf8
    ).write(to: folder.appendingPathComponent("demo.lua"))
    let result = try Self.repl(
      """
      taps, limit
      map:advance(1)
      taps
      taps = 10
      count()
      taps
      limit = 4
      limit
      hidden
      boom()
      """, in: folder)
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(" ") }
    #expect(lines == ["0\t3", "1", "11", "4", "nil"], "\(result.stdout)")
    #expect(result.stderr.contains("demo.lua:6: boom"), "\(result.stderr)")
  }

  @Test func linesRunInTheScriptsEnvironmentAndTheirRecordsFollow() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try Self.repl(
      """
      home.title
      map.camera.zoom, 1 + 1
      { answer = 42 }
      map:tap(home)
      map.info_window.content
      :trace json
      map:tap{ x = 5, y = 5 }
      :time
      map:settle()
      :time
      """, in: folder)
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.starts(with: [#""Home""#, "4.0\t2", "{ answer = 42 }"]), "\(lines)")
    let tap = try #require(lines.firstIndex { $0.contains("did_tap_marker") })
    #expect(lines[tap].contains("home"), "text records after the line")
    #expect(lines.contains { $0.contains("marker_info_window") && $0.contains("plugin=window") })
    #expect(lines.contains(#""first""#))
    #expect(lines.contains { $0.hasPrefix(#"{"t":0,"event":"did_tap_at_coordinate""#) }, "json after :trace json")
    #expect(lines.contains("t = 0 s, still moving (map:settle() to finish)"))
    #expect(lines.last?.wholeMatch(of: /t = [0-9.]+ s, settled/) != nil, "\(lines.last ?? "")")
    #expect(result.stderr.isEmpty, "no prompt or banner when standard input is not a terminal: \(result.stderr)")
  }

  @Test func unfinishedChunksContinueAndErrorsAreReported() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try Self.repl(
      """
      function double(x)
        return x * 2
      end
      double(21)
      error("boom")
      nil + 1
      :frobnicate
      double(1)
      """, in: folder)
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n") == ["42", "2"])
    #expect(result.stderr.contains("stdin:1: boom"))
    #expect(result.stderr.contains("stdin:1: attempt to perform arithmetic on a nil value"))
    #expect(result.stderr.contains(":frobnicate: no such command"))
  }

  @Test func changedPluginsReloadBetweenLinesAndReloadReloadsThemAll() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("plugins/window.lua")
    // The edit happens while the first line runs: the next line sees the new version.
    let result = try Self.repl(
      """
      "first line"
      map.selected_marker = home
      map.info_window.content
      :reload
      :help
      """, in: folder, before: { try Data(Self.windowPlugin("second").utf8).write(to: plugin) })
    #expect(result.stdout.contains("plugin_reloaded"))
    #expect(result.stdout.contains(#""second""#))
    #expect(result.stdout.contains(":trace text|json"))
  }

  @Test func theScriptMustStart() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("local = 1\n".utf8).write(to: folder.appendingPathComponent("demo.lua"))
    let result = try Self.repl("1\n", in: folder)
    #expect(result.status == 3)
    #expect(result.stderr.contains("demo.lua:1:"))
  }

  /// `waymark repl demo.lua` on a pseudo-terminal, its history in `history`.
  static func terminalRepl(in folder: URL, history: URL) throws -> (Process, PseudoTerminal) {
    let terminal = try PseudoTerminal()
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["repl", "demo.lua"]
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging(["WAYMARK_HISTORY": history.path]) { $1 }
    process.standardInput = terminal.follower
    process.standardOutput = terminal.follower
    process.standardError = terminal.follower
    try process.run()
    return (process, terminal)
  }

  @Test func aTerminalGetsPromptsAndContinuationPrompts() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (process, terminal) = try Self.terminalRepl(in: folder, history: folder.appendingPathComponent("history"))
    defer { if process.isRunning { process.terminate() } }
    #expect(terminal.read(until: "> ").contains("its map is live"))
    terminal.write("function f()\n")
    #expect(terminal.read(until: ">> ").hasSuffix(">> "))
    terminal.write("return 6 * 7 end\n")
    terminal.write("f()\n")
    #expect(terminal.read(until: "42").contains("42"))
    terminal.write(":quit\n")
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  /// On a terminal, lines are edited through libedit: TAB completes a marker's field, and the
  /// lines of a session are in the history file, where the next session's up arrow finds them.
  @Test func aTerminalCompletesAndKeepsAHistory() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let history = folder.appendingPathComponent("history")
    do {
      let (process, terminal) = try Self.terminalRepl(in: folder, history: history)
      defer { if process.isRunning { process.terminate() } }
      _ = terminal.read(until: "> ")
      terminal.write("home.tit\t\n")
      #expect(terminal.read(until: #""Home""#).contains(#""Home""#), "home.tit<TAB> completed to home.title")
      terminal.write("1+41\n")
      #expect(terminal.read(until: "42").contains("42"))
      terminal.write(":quit\n")
      process.waitUntilExit()
    }
    let saved = try String(contentsOf: history, encoding: .utf8)
    #expect(saved.contains("home.title") && saved.contains("1+41"), "\(saved)")
    let (process, terminal) = try Self.terminalRepl(in: folder, history: history)
    defer { if process.isRunning { process.terminate() } }
    _ = terminal.read(until: "> ")
    terminal.write("\u{1b}[A\u{1b}[A\u{1b}[A\n")  // up past :quit and 1+41: home.title
    #expect(terminal.read(until: #""Home""#).contains(#""Home""#))
    terminal.write(":quit\n")
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}

extension ReplCommandTests {
  /// `WAYMARK_HISTORY` naming a link, or a file that is not libedit's history (a shell's rc
  /// file), is left as it is: the session says so and keeps no history.
  @Test func aHistoryThatIsALinkOrAnotherFileIsNeitherFollowedNorOverwritten() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let rc = folder.appendingPathComponent("bashrc")
    try Data("alias ls='ls -F'\n".utf8).write(to: rc)
    let link = folder.appendingPathComponent("history-link")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: rc.path)
    for (history, said) in [(link, "is a symbolic link"), (rc, "is not a history file")] {
      let (process, terminal) = try Self.terminalRepl(in: folder, history: history)
      defer { if process.isRunning { process.terminate() } }
      let opening = terminal.read(until: "> ")
      #expect(opening.contains(said) && opening.contains("keeps no history"), "\(opening)")
      terminal.write("1+41\n")
      #expect(terminal.read(until: "42").contains("42"))
      terminal.write(":quit\n")
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      #expect(try String(contentsOf: rc, encoding: .utf8) == "alias ls='ls -F'\n", "untouched")
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == rc.path, "still the link")
  }

  /// Like ``repl(_:in:)``, running `before` once the REPL has read its first line.
  static func repl(_ input: String, in folder: URL, before: () throws -> Void) throws -> CLI.Result {
    let lines = input.split(separator: "\n", omittingEmptySubsequences: false)
    // The first line alone, then the change, then the rest: stdin is written in two parts.
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["repl", "demo.lua"]
    process.currentDirectoryURL = folder
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    try stdin.fileHandleForWriting.write(contentsOf: Data((lines[0] + "\n").utf8))
    var seen = Data()
    // A bound only so that a broken REPL fails the test instead of hanging the suite.
    DispatchQueue.global().asyncAfter(deadline: .now() + 120) { if process.isRunning { process.terminate() } }
    while !String(decoding: seen, as: UTF8.self).contains("first line"),
      let more = try stdout.fileHandleForReading.read(upToCount: 1), !more.isEmpty
    {
      seen += more
    }
    try before()
    try stdin.fileHandleForWriting.write(contentsOf: Data((lines.dropFirst().joined(separator: "\n") + "\n").utf8))
    try stdin.fileHandleForWriting.close()
    let output = seen + stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLI.Result(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: "")
  }
}

/// A pseudo-terminal: the child gets the follower side as its terminal; the test reads and
/// writes the leader side.
final class PseudoTerminal {
  let leader: FileHandle
  let follower: FileHandle

  init() throws {
    // The C library's pseudo-terminal functions, which Swift's Glibc module leaves out.
    let libc = dlopen(nil, RTLD_NOW)
    func function<F>(_ name: String, as type: F.Type) throws -> F {
      guard let symbol = dlsym(libc, name) else { throw CocoaError(.featureUnsupported) }
      return unsafeBitCast(symbol, to: type)
    }
    let openpt = try function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    let grantpt = try function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    let unlockpt = try function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    let ptsname = try function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
    let fd = openpt(O_RDWR | O_NOCTTY)
    guard fd >= 0, grantpt(fd) == 0, unlockpt(fd) == 0, let name = ptsname(fd) else {
      throw CocoaError(.fileReadUnknown)
    }
    leader = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    let followerFD = open(String(cString: name), O_RDWR | O_NOCTTY)
    guard followerFD >= 0 else { throw CocoaError(.fileReadUnknown) }
    follower = FileHandle(fileDescriptor: followerFD, closeOnDealloc: true)
  }

  func write(_ text: String) { try? leader.write(contentsOf: Data(text.utf8)) }

  /// What the terminal shows until `marker` appears (or the child ends).
  func read(until marker: String) -> String {
    var seen = ""
    while !seen.hasSuffix(marker) && !seen.contains(marker) {
      guard let byte = try? leader.read(upToCount: 1), !byte.isEmpty else { break }
      seen += String(decoding: byte, as: UTF8.self)
    }
    return seen
  }
}
