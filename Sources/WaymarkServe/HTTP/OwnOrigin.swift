import Foundation

/// The names a request may call the server by, in its `Host` and `Origin` headers: the
/// loopback names (`127.0.0.1`, `localhost`, `[::1]`) and the address it binds, each with the
/// port it listens on. A page on another site that rebinds its own name to 127.0.0.1 (DNS
/// rebinding) sends that name as its Host and is refused, as Jupyter and Vite refuse it.
///
/// A server bound to an address other machines reach (`--host 0.0.0.0`) also answers to
/// any IP address literal, as Vite does: a literal cannot be rebound, and it is how another
/// machine names this one. Names other than these are refused, whatever they resolve to.
struct OwnOrigin: Sendable {
  /// The address the server binds.
  let address: ListenAddress

  /// The host names accepted, lowercased, in the order messages list them.
  var names: [String] {
    var names = ["127.0.0.1", "localhost", "[::1]"]
    if !names.contains(address.urlHost.lowercased()) { names.append(address.urlHost.lowercased()) }
    return names
  }

  /// Whether a `Host` header names this server listening on `port`.
  func allows(host: String, port: UInt16) -> Bool {
    let authority = host.lowercased()
    let separator: String.Index?
    if authority.hasPrefix("[") {
      separator = authority.firstIndex(of: "]").map { authority.index(after: $0) }
    } else {
      separator = authority.lastIndex(of: ":")
    }
    guard let separator, separator < authority.endIndex, authority[separator] == ":" else { return false }
    let name = String(authority[..<separator])
    let digits = authority[authority.index(after: separator)...]
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), UInt16(digits) == port else {
      return false
    }
    return names.contains(name) || (!address.isLoopback && Self.isAddressLiteral(name))
  }

  /// Whether an `Origin` header is this server's own (`http://` and a name it allows).
  func allows(origin: String, port: UInt16) -> Bool {
    let scheme = "http://"
    guard origin.lowercased().hasPrefix(scheme) else { return false }
    return allows(host: String(origin.dropFirst(scheme.count)), port: port)
  }

  /// The accepted names with `port`, for messages: `127.0.0.1:8080, localhost:8080 or [::1]:8080`.
  func listing(port: UInt16) -> String {
    let all = names.map { "\($0):\(port)" }
    let listed = all.dropLast().joined(separator: ", ") + " or " + (all.last ?? "")
    return address.isLoopback ? listed : listed + " (or any IP address with that port)"
  }

  /// Whether `name` is an IPv4 literal or a bracketed IPv6 literal.
  private static func isAddressLiteral(_ name: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    if name.hasPrefix("[") && name.hasSuffix("]") {
      return inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &v6) == 1
    }
    return inet_pton(AF_INET, name, &v4) == 1
  }
}
