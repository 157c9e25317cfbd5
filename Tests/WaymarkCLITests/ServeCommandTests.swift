import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `waymark serve` as a person starts it: one line when ready, a free port with `--port 0`,
/// loopback by default, a warning for another address, clean exits on SIGTERM.
@Suite struct ServeCommandTests {
  /// A running `waymark serve` in a temporary folder with a script and a plugin.
  final class Served {
    let folder: URL
    let process = Process()
    let output = Pipe(), errors = Pipe()
    /// The line it printed when ready.
    private(set) var line = ""

    init(
      _ arguments: [String] = [],
      script: String = "local map = waymark.map{}\nmap:add_marker{ id = 'a', position = { lat = 0, lng = 0 } }\n",
      files: [String: String] = [:]
    )
      throws
    {
      folder = try CLI.temporaryFolder()
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("plugins"), withIntermediateDirectories: true)
      try Data("return { name = 'quiet' }\n".utf8).write(to: folder.appendingPathComponent("plugins/quiet.lua"))
      for (path, text) in files {
        let file = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(
          at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
      }
      try Data(script.utf8).write(to: folder.appendingPathComponent("demo.lua"))
      process.executableURL = CLI.executable
      process.arguments = ["serve", "demo.lua", "--plugins", "plugins", "--port", "0"] + arguments
      process.currentDirectoryURL = folder
      process.standardOutput = output
      process.standardError = errors
      process.standardInput = FileHandle.nullDevice
      try process.run()
      var bytes = Data()
      while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
        bytes += byte
      }
      line = String(decoding: bytes, as: UTF8.self)
    }

    /// Stops it with SIGTERM; its exit status and what it wrote on standard error.
    func stop() -> (status: Int32, errors: String) {
      if process.isRunning { process.terminate() }
      let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, text)
    }

    deinit {
      if process.isRunning { process.terminate() }
      try? FileManager.default.removeItem(at: folder)
    }
  }

  @Test func itPrintsOneLineWithAFreePortAndATokenAndServesTheMap() throws {
    let served = try Served()
    let match = try #require(served.line.wholeMatch(of: /serving http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{32})/))
    #expect(Int(match.1).map { $0 > 0 } == true)
    let url = try #require(URL(string: String(served.line.dropFirst("serving ".count))))
    let page = try String(contentsOf: url, encoding: .utf8)
    #expect(page.contains("waymark serve"))
    let stateURL = try #require(URL(string: "http://127.0.0.1:\(match.1)/state?token=\(match.2)"))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: stateURL)) as? [String: Any])
    #expect((json["markers"] as? [[String: Any]])?.first?["id"] as? String == "a")
    #expect((json["plugins"] as? [[String: Any]])?.first?["name"] as? String == "quiet")
    let (status, errors) = served.stop()
    #expect(status == 0)
    #expect(errors.contains("stopping"))
    #expect(!errors.contains("warning"), "loopback: no warning")
  }

  @Test func anotherAddressPrintsAWarning() throws {
    let served = try Served(["--host", "0.0.0.0"])
    #expect(served.line.hasPrefix("serving http://0.0.0.0:"))
    let (status, errors) = served.stop()
    #expect(status == 0)
    #expect(errors.contains("warning: 0.0.0.0 is reachable from other machines"))
  }

  @Test func aScriptThatMakesNoMapOrCannotRunIsRefused() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("local x = 1\n".utf8).write(to: folder.appendingPathComponent("nomap.lua"))
    try Data("local x = \n".utf8).write(to: folder.appendingPathComponent("broken.lua"))
    let nomap = try CLI.run(["serve", "nomap.lua", "--port", "0"], in: folder)
    #expect(nomap.status == 3)
    #expect(nomap.stderr.contains("made no map to serve"))
    let broken = try CLI.run(["serve", "broken.lua", "--port", "0"], in: folder)
    #expect(broken.status == 3)
    #expect(broken.stderr.contains("broken.lua:2:"))
  }

  @Test func badPortsHostsAndFoldersAreUsageErrors() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("waymark.map{}\n".utf8).write(to: folder.appendingPathComponent("demo.lua"))
    let port = try CLI.run(["serve", "demo.lua", "--port", "70000"], in: folder)
    #expect(port.status == 2 && port.stderr.contains("--port 70000: expected a port number from 0 to 65535"))
    let host = try CLI.run(["serve", "demo.lua", "--port", "0", "--host", "example.com"], in: folder)
    #expect(host.status == 2 && host.stderr.contains("--host example.com: expected an IP address"))
    let plugins = try CLI.run(["serve", "demo.lua", "--plugins", "nowhere"], in: folder)
    #expect(plugins.status == 3 && plugins.stderr.contains("--plugins nowhere: no such folder"))
  }

  @Test func aTakenPortIsReportedWithItsReason() throws {
    let first = try Served()
    let port = try #require(first.line.wholeMatch(of: /serving http:\/\/127\.0\.0\.1:(\d+)\/.*/)?.1)
    let second = try CLI.run(["serve", "demo.lua", "--port", String(port)], in: first.folder)
    #expect(second.status == 3)
    #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(port)"))
    #expect(first.stop().status == 0)
  }
}
