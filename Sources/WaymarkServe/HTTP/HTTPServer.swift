import CMicroHTTPD
import Foundation

/// An HTTP server on GNU libmicrohttpd: the library parses HTTP, manages connections, limits
/// and timeouts; this class collects each request's body (refusing more than
/// ``Limits/bodyLimit`` bytes), hands the whole request to a handler and sends its answer.
///
/// One thread per connection (the library's), so a handler may block while the map answers
/// and an event stream may wait for its next event without holding anyone else up; the
/// connection limit bounds the threads. Slow clients cannot starve the others: there is room
/// for thousands of connections, and each must send its request within
/// ``Limits/requestDeadline`` however it trickles it (``RequestDeadlines``).
final class HTTPServer: @unchecked Sendable {
  /// What the server accepts.
  struct Limits: Sendable {
    /// The largest request body, in bytes (larger: 413).
    var bodyLimit = 64 << 10
    /// Connections open at once; more are refused by the library. Far more than a browser
    /// opens, so that a thousand stalled clients leave room for the real one (every client
    /// on loopback has the same address: a limit per address would lock it out too).
    var connectionLimit: UInt32 = 4096
    /// Seconds a connection may stay idle before the library closes it.
    var idleTimeout: UInt32 = 30
    /// Seconds a request's headers and body may take to arrive, counted from the opening of
    /// the connection or the end of its previous answer.
    var requestDeadline = 10.0
    /// Memory the library may use per connection (headers and buffers), in bytes.
    var memoryPerConnection = 64 << 10
  }

  /// The port the server listens on (the one the system chose for port 0).
  private(set) var port: UInt16 = 0
  private let handler: @Sendable (HTTPRequest) -> HTTPResponse
  private let limits: Limits
  private let deadlines: RequestDeadlines
  private var daemon: OpaquePointer?
  /// Retains the server while the library holds a pointer to it.
  private var retained: Unmanaged<HTTPServer>?

  /// Starts listening on `address`; throws with the system's reason (the port is taken).
  init(
    address: ListenAddress, port: UInt16, limits: Limits = Limits(),
    handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) throws(ServeError) {
    self.handler = handler
    self.limits = limits
    deadlines = RequestDeadlines(limit: limits.requestDeadline)
    let connectionLimit = min(limits.connectionLimit, Self.raiseFileLimit())
    var flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue)
    flags |= UInt32(MHD_USE_POLL.rawValue)
    if address.isIPv6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
    let unmanaged = Unmanaged.passRetained(self)
    var started: OpaquePointer?
    var failure: Int32 = 0
    address.withSocketAddress(port: port) { socketAddress in
      started = waymark_mhd_start(
        flags, socketAddress, HTTPServer.access, HTTPServer.completed, HTTPServer.connections, unmanaged.toOpaque(),
        connectionLimit, limits.idleTimeout, limits.memoryPerConnection)
      failure = errno
    }
    guard let started else {
      unmanaged.release()
      deadlines.stop()
      let reason = failure == 0 ? "the server library refused to start" : String(cString: strerror(failure))
      throw ServeError(message: "cannot listen on \(address.text):\(port): \(reason)")
    }
    daemon = started
    retained = unmanaged
    self.port = waymark_mhd_port(started)
  }

  /// Stops listening and closes every connection (streams must be closed first, or their
  /// threads wait for their next event). Idempotent.
  func stop() {
    guard let daemon else { return }
    self.daemon = nil
    MHD_stop_daemon(daemon)
    deadlines.stop()
    retained?.release()
    retained = nil
  }

  /// Raises the soft limit of open files to the hard one (each connection holds a socket),
  /// and answers how many connections fit under it, with room for the process's other files.
  private static func raiseFileLimit() -> UInt32 {
    var files = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0 else { return 1024 }
    if files.rlim_cur < files.rlim_max {
      var raised = files
      raised.rlim_cur = files.rlim_max
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { files = raised }
    }
    return UInt32(clamping: max(64, Int(clamping: files.rlim_cur) - 256))
  }

  // MARK: Requests

  /// What a request gathered between the library's calls: its body so far.
  private final class Pending {
    var body = Data()
  }

  /// The library's request callback: called once with the headers, then once per piece of
  /// body, then once more when the request is complete.
  private static let access: MHD_AccessHandlerCallback = {
    context, connection, url, method, version, uploadData, uploadSize, state in
    guard let context, let connection, let uploadSize, let state else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    guard let pointer = state.pointee else {
      let pending = Pending()
      state.pointee = Unmanaged.passRetained(pending).toOpaque()
      if let problem = RequestFraming.problem(headerList(connection)) {
        // Answered before any body is read, and the connection closed: what follows on it
        // cannot be told apart from the body.
        server.deadlines.received(connection)
        return send(.error(400, problem, extra: [("Connection", "close")]), on: connection)
      }
      if let length = value(connection, .HEADER_KIND, "Content-Length").flatMap(Int.init),
        length > server.limits.bodyLimit
      {
        // Answered before the body is read: the library discards the rest and closes.
        server.deadlines.received(connection)
        return send(tooLarge(server.limits), on: connection)
      }
      return .YES
    }
    let pending = Unmanaged<Pending>.fromOpaque(pointer).takeUnretainedValue()
    if uploadSize.pointee > 0 {
      let count = uploadSize.pointee
      if pending.body.count + count > server.limits.bodyLimit {
        // A body without a declared length that outgrows the cap: the connection is closed
        // (no answer can be queued while the body is still arriving).
        return .NO
      }
      if let uploadData {
        pending.body.append(UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: count)
      }
      uploadSize.pointee = 0
      return .YES
    }
    server.deadlines.received(connection)
    let request = HTTPRequest(
      method: method.map { String(cString: $0) } ?? "",
      path: url.map { String(cString: $0) } ?? "/",
      version: version.map { String(cString: $0) } ?? "",
      port: waymark_mhd_connection_port(connection),
      query: values(connection, .GET_ARGUMENT_KIND),
      headers: values(connection, .HEADER_KIND, lowercased: true),
      body: pending.body)
    return send(server.handler(request), on: connection)
  }

  /// The library's completion callback: releases what the request gathered, and starts the
  /// next request's deadline.
  private static let completed: MHD_RequestCompletedCallback = { context, connection, state, _ in
    if let context, let connection {
      Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().deadlines.answered(connection)
    }
    guard let state, let pointer = state.pointee else { return }
    Unmanaged<Pending>.fromOpaque(pointer).release()
    state.pointee = nil
  }

  /// The library's connection callback: a connection opened or closed.
  private static let connections: MHD_NotifyConnectionCallback = { context, connection, _, code in
    guard let context, let connection else { return }
    let deadlines = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().deadlines
    if code == .CONNECTION_NOTIFY_STARTED {
      deadlines.opened(connection, socket: waymark_mhd_connection_socket(connection))
    } else {
      deadlines.closed(connection)
    }
  }

  private static func tooLarge(_ limits: Limits) -> HTTPResponse {
    .error(413, "the request body is larger than \(limits.bodyLimit >> 10) KiB")
  }

  // MARK: Responses

  /// Queues a response on the connection.
  private static func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let data):
      made = data.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
          bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
      }
    case .stream(let stream):
      let box = Unmanaged.passRetained(stream).toOpaque()
      made = MHD_create_response_from_callback(UInt64.max, 4096, EventStream.reader, box, EventStream.release)
      if made == nil { Unmanaged<EventStream>.fromOpaque(box).release() }
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
    return MHD_queue_response(connection, UInt32(response.status), made)
  }

  // MARK: Reading what the library parsed

  /// One value of a kind (a header, a query argument).
  private static func value(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
    MHD_lookup_connection_value(connection, kind, key).map { String(cString: $0) }
  }

  /// Every header in the order sent, names lowercased, repeated ones included.
  private static func headerList(_ connection: OpaquePointer) -> [(name: String, value: String)] {
    final class Collected { var headers: [(name: String, value: String)] = [] }
    let collected = Collected()
    withExtendedLifetime(collected) {
      _ = MHD_get_connection_values(
        connection, .HEADER_KIND,
        { context, _, key, value in
          guard let context, let key else { return .YES }
          Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().headers.append(
            (String(cString: key).lowercased(), value.map { String(cString: $0) } ?? ""))
          return .YES
        }, Unmanaged.passUnretained(collected).toOpaque())
    }
    return collected.headers
  }

  /// Every value of a kind, the first of a repeated key kept.
  private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool = false)
    -> [String: String]
  {
    final class Collected {
      var values: [String: String] = [:]
      let lowercased: Bool
      init(lowercased: Bool) { self.lowercased = lowercased }
    }
    let collected = Collected(lowercased: lowercased)
    withExtendedLifetime(collected) {
      _ = MHD_get_connection_values(
        connection, kind,
        { context, _, key, value in
          guard let context, let key else { return .YES }
          let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
          let name = collected.lowercased ? String(cString: key).lowercased() : String(cString: key)
          if collected.values[name] == nil { collected.values[name] = value.map { String(cString: $0) } ?? "" }
          return .YES
        }, Unmanaged.passUnretained(collected).toOpaque())
    }
    return collected.values
  }
}

/// A failure to serve: a port in use, an address that is not one. One line.
public struct ServeError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, for people.
  public let message: String
  /// The message.
  public var description: String { message }
}
