import Foundation

/// A bare HTTP/1.1 client over a loopback TCP socket, for tests: it sends exactly the bytes
/// it is given (malformed ones too) and reads what comes back. Every read waits at most
/// `timeout` seconds, so a broken server fails a test instead of hanging the suite.
struct LoopbackClient {
  let port: Int
  var timeout = 30

  /// A response as read off the wire.
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object.
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
  }

  /// An open connection.
  final class Connection {
    let socket: Int32
    init(socket: Int32) { self.socket = socket }
    deinit { close(socket) }

    func send(_ bytes: Data) {
      bytes.withUnsafeBytes { buffer in
        var sent = 0
        while sent < buffer.count {
          let n = Foundation.send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
          if n <= 0 { return }
          sent += n
        }
      }
    }

    /// Some bytes, or nil at the end of the stream (or after the timeout).
    func receive() -> Data? {
      var buffer = [UInt8](repeating: 0, count: 65536)
      let n = recv(socket, &buffer, buffer.count, 0)
      return n > 0 ? Data(buffer[0..<n]) : nil
    }

    /// Everything until the server closes.
    func receiveAll() -> Data {
      var data = Data()
      while let more = receive() { data += more }
      return data
    }
  }

  /// Connects to the server.
  func connect() -> Connection? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var wait = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 else {
      close(fd)
      return nil
    }
    return Connection(socket: fd)
  }

  /// Sends raw bytes, says it has nothing more to send, and reads the whole answer (the
  /// server closes: `Connection: close`, or the end of what was sent).
  func raw(_ bytes: Data) -> Response? {
    guard let connection = connect() else { return nil }
    connection.send(bytes)
    shutdown(connection.socket, Int32(SHUT_WR))
    return Self.parse(connection.receiveAll())
  }

  /// A request with a method, a target (path and query), optional body and headers, naming
  /// the server `host` (by default its own address).
  func request(_ method: String, _ target: String, body: Data? = nil, headers: [String] = [], host: String? = nil)
    -> Response?
  {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
    for header in headers { head += header + "\r\n" }
    if let body { head += "Content-Length: \(body.count)\r\n" }
    return raw(Data((head + "\r\n").utf8) + (body ?? Data()))
  }

  func get(_ target: String) -> Response? { request("GET", target) }

  func post(_ target: String, _ json: String) -> Response? {
    request("POST", target, body: Data(json.utf8), headers: ["Content-Type: application/json"])
  }

  /// Splits a response into status, headers and body (chunked bodies joined).
  static func parse(_ data: Data) -> Response? {
    guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
    let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    guard let statusLine = head.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Data(data[end.upperBound...])
    if headers["transfer-encoding"] == "chunked" { body = dechunk(body) }
    return Response(status: status, headers: headers, body: body)
  }

  /// The payload of a chunked body (what arrived of it).
  static func dechunk(_ data: Data) -> Data {
    var out = Data()
    var rest = data[...]
    while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
      let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
      let start = lineEnd.upperBound
      guard size > 0, rest.distance(from: start, to: rest.endIndex) >= size else {
        if size > 0 { out += rest[start...] }
        break
      }
      let stop = rest.index(start, offsetBy: size)
      out += rest[start..<stop]
      rest = rest[min(rest.index(stop, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex, rest.endIndex)...]
    }
    return out
  }
}
