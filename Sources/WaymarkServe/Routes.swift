import Foundation
import WaymarkCore
import WaymarkRender
import WaymarkScripting

/// The live map's routes: which path, which methods, the token, and the answer. Runs on the
/// server's connection threads; everything that touches the map goes through the loop.
struct Routes: Sendable {
  let loop: LiveMapLoop
  let token: String
  let streamCapacity: Int
  /// The names requests may call the server by (`Host`, `Origin`).
  let origin: OwnOrigin

  /// The paths that exist, each with the methods it answers.
  enum Route: String, CaseIterable {
    case page = "/"
    case state = "/state"
    case events = "/events"
    case input = "/input"
    case picture = "/map.svg"

    var methods: [String] { self == .input ? ["POST"] : ["GET", "HEAD"] }
  }

  /// Answers a request: 403 when it names another server or comes from another site's page
  /// (whatever the path); 404 for an unknown path; 403 without the right token (a bare
  /// `GET /` gets a page saying where the token is); 405 for a method the path does not answer.
  func respond(to request: HTTPRequest) -> HTTPResponse {
    if let refusal = refusalOfForeignCaller(request) { return refusal }
    guard let route = Route(rawValue: request.path) else {
      return .error(
        404, "no such route: \(Self.printable(request.path)) (the routes are /, /state, /events, /input, /map.svg)")
    }
    let given = request.query["token"]
    if route == .page, given == nil, route.methods.contains(request.method) {
      return .bytes(
        200, "text/html; charset=utf-8", Data(Page.withoutToken.utf8), extra: [Page.securityPolicy(nonce: "none")])
    }
    guard let given, Self.constantTimeEquals(given, token) else {
      return .error(403, "this route needs the token of the URL that waymark serve printed (?token=...)")
    }
    guard route.methods.contains(request.method) else {
      return .error(
        405,
        "\(route.rawValue) answers \(route.methods.joined(separator: " and ")), not \(Self.printable(request.method))",
        extra: [("Allow", route.methods.joined(separator: ", "))])
    }
    switch route {
    case .page:
      let nonce = LiveMapServer.randomToken()
      return .bytes(
        200, "text/html; charset=utf-8", Data(Page.html(nonce: nonce).utf8), extra: [Page.securityPolicy(nonce: nonce)])
    case .state: return state()
    case .events: return events(request)
    case .input: return input(request)
    case .picture: return picture()
    }
  }

  /// 403 for a request whose `Host` is not the server's own address (a page on another site
  /// that rebound its name to 127.0.0.1), or none in HTTP/1.1, and for one whose `Origin`,
  /// when sent, is not the server's own (a script on another site's page).
  private func refusalOfForeignCaller(_ request: HTTPRequest) -> HTTPResponse? {
    let own = origin.listing(port: request.port)
    guard let host = request.headers["host"] else {
      guard request.version == "HTTP/1.0" else {
        return .error(403, "the request has no Host header: the server answers only requests to \(own)")
      }
      return nil
    }
    guard origin.allows(host: host, port: request.port) else {
      return .error(
        403,
        "Host \(Self.printable(host)) is not this server's address, so the request is refused (a page on another "
          + "site can reach 127.0.0.1 by rebinding its own name to it): open it as \(own)")
    }
    if let sender = request.headers["origin"], !origin.allows(origin: sender, port: request.port) {
      return .error(
        403,
        "Origin \(Self.printable(sender)) is not this server's own, so the request is refused (a page on another "
          + "site may neither read nor drive the map): only pages from \(own) may")
    }
    return nil
  }

  private func state() -> HTTPResponse {
    let state = loop.sync { session, loop -> LiveMapState? in
      session.map.map { LiveMapState(map: $0, plugins: session.plugins, clock: loop.clock) }
    }
    guard let state, let state else { return .error(503, "the map is gone (the server is stopping)") }
    return .json(200, JSONBody.encode(state))
  }

  /// The map as the SVG snapshots draw it (WaymarkRender), which the page shows.
  private func picture() -> HTTPResponse {
    let svg = loop.sync { session, _ in session.map.map { SVGRenderer().svg(of: $0) } }
    guard let svg, let svg else { return .error(503, "the map is gone (the server is stopping)") }
    return .bytes(200, "image/svg+xml; charset=utf-8", Data(svg.utf8))
  }

  private func events(_ request: HTTPRequest) -> HTTPResponse {
    // A browser reconnecting sends Last-Event-ID; `?since=0` asks for every kept event.
    let after = request.headers["last-event-id"].flatMap(Int.init) ?? request.query["since"].flatMap(Int.init)
    let stream = EventStream(capacity: streamCapacity)
    guard loop.sync({ _, loop in loop.subscribe(stream, after: after) }) != nil else {
      return .error(503, "the map is gone (the server is stopping)")
    }
    return HTTPResponse(
      status: 200,
      headers: [("Content-Type", "text/event-stream; charset=utf-8")] + HTTPResponse.commonHeaders,
      body: .stream(stream))
  }

  /// What `POST /input` answers.
  struct InputAnswer: Encodable {
    var ok = true
    var records: [EncodedRecord]
    var clock: ClockState?
  }

  /// Runs an input: its body must be declared JSON (`application/json`, parameters allowed),
  /// since a page on another site may post `text/plain` without asking the server first.
  private func input(_ request: HTTPRequest) -> HTTPResponse {
    let declared = request.headers["content-type"]
    let type = declared?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    guard type == "application/json" else {
      return .error(
        415,
        "POST /input takes JSON: send Content-Type: application/json (it was "
          + "\(declared.map { Self.printable($0) } ?? "missing"))")
    }
    let action: InputRequest.Action
    do {
      action = try InputRequest.action(from: request.body)
    } catch {
      return .error(400, error.message)
    }
    let answer = loop.sync { session, loop -> Result<InputAnswer, InputError> in
      switch action {
      case .input(let input):
        let step = session.perform(input)
        loop.publish(step.records)
        if step.error == nil { loop.saveRecording(session) }
        if let error = step.error { return .failure(InputError(message: error)) }
        return .success(InputAnswer(records: step.records.map(EncodedRecord.init)))
      case .clock(let paused, let speed):
        loop.setClock(paused: paused, speed: speed)
        return .success(InputAnswer(records: [], clock: loop.clock))
      }
    }
    switch answer {
    case .none: return .error(503, "the map is gone (the server is stopping)")
    case .failure(let error): return .error(400, error.message)
    case .success(let answer): return .json(200, JSONBody.encode(answer))
    }
  }

  /// Compares without stopping at the first difference (the time taken says nothing).
  static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }

  /// A path or method as a message may quote it: at most 100 characters, controls escaped.
  static func printable(_ text: String) -> String {
    let shown = text.unicodeScalars.prefix(100).map { $0.value < 0x20 || $0.value == 0x7f ? "?" : String($0) }
    return shown.joined() + (text.unicodeScalars.count > 100 ? "…" : "")
  }
}
