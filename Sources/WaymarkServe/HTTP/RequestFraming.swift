/// The checks of a request's framing that GNU libmicrohttpd leaves out: it answers a request
/// naming two hosts, or whose body's length two headers give differently, taking one of them.
/// A proxy in front that took the other would see different requests than the server (request
/// smuggling), so the server refuses them all (400, and the connection is closed).
enum RequestFraming {
  /// Why the headers (names lowercased, in order, repeated ones included) do not frame one
  /// request, nil when they do: two `Host` headers, `Content-Length` headers that differ, or
  /// `Content-Length` with `Transfer-Encoding` (RFC 9112, 6.3: a server ought to refuse it).
  static func problem(_ headers: [(name: String, value: String)]) -> String? {
    let hosts = headers.filter { $0.name == "host" }
    if hosts.count > 1 {
      return "the request has \(hosts.count) Host headers; a request names one host"
    }
    let lengths = Set(headers.filter { $0.name == "content-length" }.map { trimmed($0.value) })
    if lengths.count > 1 {
      return "the request's Content-Length headers differ (\(lengths.sorted().joined(separator: ", "))); "
        + "a body has one length"
    }
    if !lengths.isEmpty, headers.contains(where: { $0.name == "transfer-encoding" }) {
      return "the request has both Content-Length and Transfer-Encoding; a body is framed by one of them"
    }
    return nil
  }

  /// A header's value without the spaces and tabs around it.
  private static func trimmed(_ value: String) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(value.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
  }
}
