import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// `waymark serve`: one live map (a `LiveSession` on its own thread) served over HTTP on
/// GNU libmicrohttpd, with a page where the mouse is the finger.
///
/// | route | what |
/// |---|---|
/// | `GET /?token=T` | the page |
/// | `GET /state?token=T` | the map's state as JSON |
/// | `GET /events?token=T` | Server-Sent Events: one `data:` line of `--trace json` per record |
/// | `POST /input?token=T` | an input as JSON; answers `{ "ok": true, "records": [...] }` |
///
/// Secure by default: it binds 127.0.0.1; every route but a bare `GET /` needs the random
/// token of ``url``; only the page's own built-in assets exist (no file is ever served);
/// bodies over `Configuration/limits` are refused; the map never waits for a client.
///
/// ```swift
/// let server = try LiveMapServer(script: "scripts/city_guide.lua", options: ScriptOptions())
/// print("serving \(server.url)")
/// ```
public final class LiveMapServer: @unchecked Sendable {
  /// Where and how the server listens.
  public struct Configuration: Sendable {
    /// The address to bind: an IP literal or `localhost` (default 127.0.0.1).
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (default 8080).
    public var port: UInt16 = 8080
    /// The token guarding the routes; nil for a random one (128 bits).
    public var token: String?
    /// Unsent bytes a client's event stream may hold before the client is dropped.
    public var streamCapacity = 1 << 20
    /// Seconds a client may take to send a whole request (headers and body), from the
    /// opening of its connection or the end of its previous answer; then it is closed.
    public var requestDeadline = 10.0
    /// The test file the page's inputs are written to as they are made (`--record FILE`):
    /// beside the script, which it requires; nil records nothing.
    public var recordFile: String?
    /// The defaults.
    public init() {}
  }

  /// The page's address with its token: `http://127.0.0.1:8080/?token=...`.
  public let url: String
  /// The port listened on.
  public let port: Int
  /// What running the script produced (failed expectations, plugin problems, its error).
  public let startup: ScriptOutcome
  /// Whether the address is reachable from other machines (not loopback).
  public let isExposed: Bool
  let token: String
  let loop: LiveMapLoop
  private var server: HTTPServer?

  /// Runs `script` to build the map, then listens. Throws a ``ServeError`` with one line:
  /// the script could not start or made no map, the address is not one, the port is taken.
  public init(script: String, options: ScriptOptions, configuration: Configuration = Configuration())
    throws(ServeError)
  {
    let address = try ListenAddress(configuration.host)
    let recording: LiveRecording?
    do {
      recording = try configuration.recordFile.map { (file) throws(LiveSessionError) in
        try LiveRecording(file: file, script: script, pluginFolders: options.pluginFolders)
      }
      loop = try LiveMapLoop(script: script, options: options, streamCapacity: configuration.streamCapacity)
    } catch {
      throw ServeError(message: error.message)
    }
    let startup = loop.sync { session, _ in (session.startup, session.map != nil) }
    guard let startup, startup.1 else {
      loop.stop()
      throw ServeError(
        message: "\(script): the script made no map to serve (call waymark.map{...})"
          + (startup?.0.error.map { "; it stopped with: \($0)" } ?? ""))
    }
    self.startup = startup.0
    if let recording {
      let failure = loop.sync { session, loop in
        session.recording = recording
        loop.saveRecording(session)
        return loop.recordingFailure
      }
      if let failure = failure ?? nil {
        loop.stop()
        throw ServeError(message: "--record: \(failure)")
      }
    }
    token = configuration.token ?? Self.randomToken()
    isExposed = !address.isLoopback
    let routes = Routes(
      loop: loop, token: token, streamCapacity: configuration.streamCapacity, origin: OwnOrigin(address: address))
    do {
      var limits = HTTPServer.Limits()
      limits.requestDeadline = configuration.requestDeadline
      server = try HTTPServer(address: address, port: configuration.port, limits: limits) { request in
        routes.respond(to: request)
      }
    } catch {
      loop.stop()
      throw error
    }
    port = Int(server?.port ?? 0)
    url = "http://\(address.urlHost):\(port)/?token=\(token)"
  }

  deinit { stop() }

  /// Stops serving: event streams end, the map is retired (plugins' `teardown` runs), the
  /// server closes its connections. Idempotent.
  public func stop() {
    loop.stop()
    server?.stop()
    server = nil
  }

  /// Why the recorded test file (`--record`) could not be written the last time it was
  /// written; nil when it was. Read it after ``stop()``.
  public var recordingFailure: String? { loop.recordingFailure }

  /// Throws unless `host` is an address the server can bind: an IP literal or `localhost`.
  public static func checkHost(_ host: String) throws(ServeError) { _ = try ListenAddress(host) }

  /// 128 random bits as 32 hex digits, from the system's generator.
  static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in
      let hex = String(generator.next() as UInt32, radix: 16)
      return String(repeating: "0", count: 8 - hex.count) + hex
    }.joined()
  }
}
