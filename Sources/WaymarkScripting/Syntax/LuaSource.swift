import LuaKit

/// A Lua source as Lua reads it: the exact bytes of a file, which need not be UTF-8 (Lua takes
/// any byte in strings and comments; docs/plugins.md, "Sandbox"). What runs is
/// always ``bytes``; Swift's own readers (the linter, messages that quote a line) see
/// ``text``.
public struct LuaSource: Equatable, Sendable {
  /// The bytes Lua compiles.
  public let bytes: [UInt8]

  /// The source of these bytes.
  public init(bytes: [UInt8]) { self.bytes = bytes }

  /// The source of a file's bytes as Lua's `luaL_loadfile` (and so `lua5.4 FILE` and
  /// `require`) reads them: a UTF-8 byte order mark at the start is dropped, and a first line
  /// that starts with `#` (a `#!` line) is left out, its line break kept so that no line
  /// number moves.
  public init(file: [UInt8]) {
    var rest = file[...]
    if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
    if rest.first == UInt8(ascii: "#") { rest = rest.drop { $0 != UInt8(ascii: "\n") } }
    bytes = Array(rest)
  }

  /// The source of this text, as UTF-8.
  public init(_ text: String) { bytes = Array(text.utf8) }

  /// The source as text, to show only: UTF-8, each piece that is not well-formed UTF-8 read
  /// as U+FFFD (Swift's and the Unicode standard's replacement). Lines stay where they are:
  /// a line break is never part of such a piece.
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension LuaSource: ExpressibleByStringLiteral {
  /// The source of a literal's text, as UTF-8.
  public init(stringLiteral text: String) { self.init(text) }
}

extension LuaStack {
  /// Compiles `source`'s exact bytes and pushes the chunk (``LuaStack/load(bytes:chunkName:environmentAt:)``).
  package func load(_ source: LuaSource, chunkName: String, environmentAt environment: Int32? = nil) throws(LuaError) {
    try load(bytes: source.bytes, chunkName: chunkName, environmentAt: environment)
  }
}
