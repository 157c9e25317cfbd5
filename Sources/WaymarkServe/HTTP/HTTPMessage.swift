import Foundation

/// A whole HTTP request as the server received it: the body is complete (and within the
/// server's cap) before a handler sees it.
struct HTTPRequest: Sendable {
  /// `GET`, `POST`, ...
  var method: String
  /// The path without the query, percent-decoded by the server library (`/state`).
  var path: String
  /// The protocol version as sent (`HTTP/1.1`).
  var version: String
  /// The port the server listens on (the one the request reached).
  var port: UInt16
  /// The query's arguments, decoded by the server library (`token`).
  var query: [String: String]
  /// The headers, by lowercased name.
  var headers: [String: String]
  /// The body.
  var body: Data
}

/// What the server sends back: a status, headers, and a body that is either whole or a
/// stream of Server-Sent Events.
struct HTTPResponse: Sendable {
  /// The body of a response.
  enum Body: Sendable {
    /// A complete body.
    case bytes(Data)
    /// An endless body fed by a stream (Server-Sent Events) until it closes.
    case stream(EventStream)
  }

  /// The status code.
  var status: Int
  /// The headers, in order (`Content-Type` included).
  var headers: [(name: String, value: String)]
  /// The body.
  var body: Body

  /// Headers every response carries: nothing is cached, sniffed, framed or referred (the
  /// page's URL holds the token).
  static let commonHeaders: [(name: String, value: String)] = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
  ]

  /// A complete response of `contentType`.
  static func bytes(_ status: Int, _ contentType: String, _ body: Data, extra: [(name: String, value: String)] = [])
    -> HTTPResponse
  {
    HTTPResponse(status: status, headers: [("Content-Type", contentType)] + commonHeaders + extra, body: .bytes(body))
  }

  /// A JSON response of an encoded value.
  static func json(_ status: Int, _ body: Data, extra: [(name: String, value: String)] = []) -> HTTPResponse {
    bytes(status, "application/json; charset=utf-8", body, extra: extra)
  }

  /// A JSON error `{ "ok": false, "error": message }`.
  static func error(_ status: Int, _ message: String, extra: [(name: String, value: String)] = []) -> HTTPResponse {
    json(status, JSONBody.encode(ErrorAnswer(error: message)), extra: extra)
  }
}

/// `{ "ok": false, "error": "..." }`: every refusal of the server, with a message.
struct ErrorAnswer: Encodable {
  var ok = false
  var error: String
}

/// JSON through Foundation's encoder, in one configuration for every answer.
enum JSONBody {
  /// The encoding of `value` (keys in declaration order, no escaped slashes).
  static func encode<Value: Encodable>(_ value: Value) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    do {
      return try encoder.encode(value)
    } catch {
      // Only non-finite numbers fail, and every number here is checked or rounded first.
      return Data(#"{"ok":false,"error":"the answer could not be encoded"}"#.utf8)
    }
  }
}
