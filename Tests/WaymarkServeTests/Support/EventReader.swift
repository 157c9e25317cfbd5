import Foundation

/// Reads a Server-Sent Events response as it arrives: undoes the chunked transfer encoding
/// and splits events (`id:`, `event:`, `data:` lines, a blank line after each).
final class EventReader {
  /// One event.
  struct Event {
    var id: Int?
    var name: String?
    var data: [String]
    /// The data line as a JSON object.
    var json: [String: Any] {
      (try? JSONSerialization.jsonObject(with: Data((data.first ?? "").utf8))) as? [String: Any] ?? [:]
    }
  }

  let connection: LoopbackClient.Connection
  private(set) var status = 0
  private(set) var headers = ""
  private var raw = Data()
  private var payload = Data()
  private var headerDone = false

  /// Opens `target` (a GET) and reads the response head.
  init?(_ client: LoopbackClient, _ target: String, headers extra: [String] = []) {
    guard let connection = client.connect() else { return nil }
    self.connection = connection
    var head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\nAccept: text/event-stream\r\n"
    for header in extra { head += header + "\r\n" }
    connection.send(Data((head + "\r\n").utf8))
    while !headerDone {
      guard let more = connection.receive() else { return nil }
      raw += more
      guard let end = raw.range(of: Data("\r\n\r\n".utf8)) else { continue }
      headers = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
      status = Int(headers.split(separator: " ").dropFirst().first ?? "") ?? 0
      raw = Data(raw[end.upperBound...])
      headerDone = true
    }
    dechunk()  // what arrived with the head

  }

  /// Events until `stop` says enough (it sees every event), or the stream ends.
  func events(until stop: (Event) -> Bool) -> [Event] {
    var found: [Event] = []
    while true {
      while let range = payload.range(of: Data("\n\n".utf8)) {
        let block = String(decoding: payload[..<range.lowerBound], as: UTF8.self)
        payload = Data(payload[range.upperBound...])
        guard let event = Self.event(block) else { continue }
        found.append(event)
        if stop(event) { return found }
      }
      guard let more = connection.receive() else { return found }
      raw += more
      dechunk()
    }
  }

  private func dechunk() {
    while let lineEnd = raw.range(of: Data("\r\n".utf8)) {
      guard let size = Int(String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) else { return }
      let needed = lineEnd.upperBound + size + 2 - raw.startIndex
      guard raw.count >= needed else { return }
      payload += raw[lineEnd.upperBound..<(lineEnd.upperBound + size)]
      raw = Data(raw[(raw.startIndex + needed)...])
      if size == 0 { return }
    }
  }

  private static func event(_ block: String) -> Event? {
    var event = Event(data: [])
    var meaningful = false
    for line in block.split(separator: "\n") where !line.hasPrefix(":") {
      meaningful = true
      if line.hasPrefix("id: ") { event.id = Int(line.dropFirst(4)) }
      if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
      if line.hasPrefix("data: ") { event.data.append(String(line.dropFirst(6))) }
    }
    return meaningful ? event : nil
  }
}
