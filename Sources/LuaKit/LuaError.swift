/// An error raised by Lua code, or by loading or calling it.
///
/// Prints like `Lua error (runtime): plugins/x.lua:12: attempt to index a nil
/// value (field 'title')`. The traceback, when Lua produced one, is kept
/// apart in ``traceback`` and not part of ``description``.
package struct LuaError: Error, CustomStringConvertible, Sendable, Equatable {
  /// What went wrong, in the terms a host reacts to.
  package enum Kind: String, Sendable, Hashable {
    /// A runtime error (`LUA_ERRRUN`), including errors thrown by Swift functions.
    case runtime
    /// A syntax error while loading (`LUA_ERRSYNTAX`), or a refused binary chunk.
    case syntax
    /// Memory exhausted or refused by the state's memory cap (`LUA_ERRMEM`).
    case memory
    /// The message handler itself failed (`LUA_ERRERR`).
    case errorInHandler = "error in handler"
    /// The watchdog stopped the call because it ran past the time budget.
    case timeout
  }

  /// What went wrong.
  package var kind: Kind
  /// The C status the Lua API returned (`.runtimeError` for a timeout).
  package var status: LuaStatus
  /// The error message, usually prefixed with `file:line:` of the Lua code.
  package var message: String
  /// The stack traceback (`stack traceback:` and its lines), when available.
  package var traceback: String?

  /// Creates an error; `kind` defaults to the one `status` implies.
  package init(kind: Kind? = nil, status: LuaStatus, message: String, traceback: String? = nil) {
    self.kind = kind ?? Kind(status)
    self.status = status
    self.message = message
    self.traceback = traceback
  }

  /// `Lua error (<kind>): <message>`.
  package var description: String { "Lua error (\(kind.rawValue)): \(message)" }
}

extension LuaError.Kind {
  init(_ status: LuaStatus) {
    switch status {
    case .syntaxError: self = .syntax
    case .memoryError: self = .memory
    case .handlerError: self = .errorInHandler
    default: self = .runtime
    }
  }
}

extension LuaError {
  private static let tracebackMarker = Array("\nstack traceback:\n".utf8)

  /// The most bytes of a message, and of a traceback, that an error keeps: Lua code can
  /// raise a string of any size, and the host keeps and prints what it is given.
  package static let longestText = 64 << 10

  /// Reads the error value on top of `L` (left in place) as message and traceback, each cut
  /// to ``longestText`` bytes (with a note of how much was cut) before it is copied.
  init(thread L: LuaThreadPointer, status: Int32, timedOut: Bool) {
    let status = LuaStatus(rawValue: status)
    var text: String
    var traceback: String?
    switch LuaType(rawValue: LuaC.type(L, -1)) {
    case .string:
      (text, traceback) = LuaC.withStringBytes(L, -1) { bytes in
        let marker = Self.firstIndex(of: Self.tracebackMarker, in: bytes)
        let message = UnsafeRawBufferPointer(rebasing: bytes[..<(marker ?? bytes.count)])
        return (Self.capped(message), marker.map { Self.capped(UnsafeRawBufferPointer(rebasing: bytes[($0 + 1)...])) })
      }
    case .none: text = "(no error value)"
    case let type: text = "(error object is a \(type) value)"
    }
    self.init(kind: timedOut ? .timeout : nil, status: status, message: text, traceback: traceback)
  }

  private static func firstIndex(of needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
      if needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] }) { return start }
    }
    return nil
  }

  /// The text of `bytes`, at most ``longestText`` of them (cut at a character boundary).
  private static func capped(_ bytes: UnsafeRawBufferPointer) -> String {
    guard bytes.count > longestText else { return String(decoding: bytes, as: UTF8.self) }
    var end = longestText
    while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    let kept = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
    return kept + "… (\(bytes.count - end) more bytes)"
  }
}
