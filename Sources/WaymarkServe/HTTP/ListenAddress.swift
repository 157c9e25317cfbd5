import Foundation

/// The address a server binds: an IPv4 or IPv6 literal (`127.0.0.1`, `::1`, `0.0.0.0`) or
/// `localhost`. Names are not resolved: what is bound is exactly what was typed.
struct ListenAddress: Sendable {
  /// As typed (`localhost` becomes `127.0.0.1`).
  let text: String
  /// Whether it is an IPv6 address.
  let isIPv6: Bool
  private let bytes: [UInt8]

  /// Parses an address; throws with what is accepted.
  init(_ text: String) throws(ServeError) {
    let literal = text == "localhost" ? "127.0.0.1" : text
    var v4 = in_addr()
    var v6 = in6_addr()
    if inet_pton(AF_INET, literal, &v4) == 1 {
      isIPv6 = false
      bytes = withUnsafeBytes(of: v4) { Array($0) }
    } else if inet_pton(AF_INET6, literal, &v6) == 1 {
      isIPv6 = true
      bytes = withUnsafeBytes(of: v6) { Array($0) }
    } else {
      throw ServeError(
        message: "--host \(text): expected an IP address such as 127.0.0.1, ::1 or 0.0.0.0 (or localhost)")
    }
    self.text = literal
  }

  /// Whether only this machine can connect (127.0.0.0/8 or ::1).
  var isLoopback: Bool { isIPv6 ? bytes == Array(repeating: 0, count: 15) + [1] : bytes.first == 127 }

  /// The host part of a URL (IPv6 in brackets).
  var urlHost: String { isIPv6 ? "[\(text)]" : text }

  /// Calls `body` with a socket address of this address and `port`.
  func withSocketAddress(port: UInt16, _ body: (UnsafePointer<sockaddr>) -> Void) {
    if isIPv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
      withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: bytes) }
      withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
  }
}
