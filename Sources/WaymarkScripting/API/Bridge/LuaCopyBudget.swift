/// What copying one Lua value tree into Swift may still cost: the one budget of every reader
/// that copies a plugin's values into the host (plain data for `user_data` and hot reload,
/// info-window content). A reader takes from it before it copies, so a value past a limit
/// costs the host almost nothing; each reader says in its own words which limit was hit.
struct LuaCopyBudget {
  /// The deepest nesting of tables any reader copies.
  static let maxDepth = 32

  /// Which limit a take went past.
  enum Overrun {
    /// More values than ``maxValues``.
    case values
    /// More bytes than ``maxBytes``.
    case bytes
  }

  /// The most values the tree may hold.
  let maxValues: Int
  /// The most bytes it may cost.
  let maxBytes: Int
  private var values: Int
  private var bytes: Int

  /// A budget of `maxValues` values and `maxBytes` bytes.
  init(maxValues: Int, maxBytes: Int) {
    self.maxValues = maxValues
    self.maxBytes = maxBytes
    values = maxValues
    bytes = maxBytes
  }

  /// Takes `count` values and `byteCount` bytes; the limit passed, if any.
  mutating func take(values count: Int = 1, bytes byteCount: Int = 0) -> Overrun? {
    values -= count
    bytes -= byteCount
    if values < 0 { return .values }
    if bytes < 0 { return .bytes }
    return nil
  }
}
