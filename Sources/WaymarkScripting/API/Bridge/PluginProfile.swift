import WaymarkCore

/// Where plugin handlers spend their time (`waymark test --profile`): per plugin and
/// handler, how many calls, their total wall-clock time and the slowest one. Recorded by a
/// ``PluginHost`` whose ``PluginHost/Configuration/profile`` is set; nothing is measured
/// otherwise. Used on the thread of the maps it profiles, the first that records in it
/// (`ThreadBound`, checked in debug builds).
public final class PluginProfile: @unchecked Sendable {
  /// One plugin's handler.
  public struct Row: Sendable, Hashable, Codable {
    /// The plugin's name.
    public var plugin: String
    /// The handler's name.
    public var handler: String
    /// How many calls.
    public var calls = 0
    /// Their total wall-clock time, in seconds.
    public var total = 0.0
    /// The slowest call, in seconds.
    public var slowest = 0.0

    /// A row of `calls` calls of `handler` of `plugin`.
    public init(plugin: String, handler: String, calls: Int = 0, total: Double = 0, slowest: Double = 0) {
      self.plugin = plugin
      self.handler = handler
      self.calls = calls
      self.total = total
      self.slowest = slowest
    }

    /// Adds `other` (the same plugin and handler) to this row.
    public mutating func add(_ other: Row) {
      calls += other.calls
      total += other.total
      slowest = max(slowest, other.slowest)
    }
  }

  private let rows = ThreadBound([String: Row]())

  /// An empty profile.
  public init() {}

  /// Notes `calls` calls (one by default) of `handler` of `plugin` that took `seconds` in all:
  /// a handler's call, or a live view's redraws (R34: one read draws every frame since the last).
  func record(plugin: String, handler: String, calls: Int = 1, seconds: Double) {
    let key = plugin + "\u{0}" + handler
    rows.value[key, default: Row(plugin: plugin, handler: handler)].add(
      Row(plugin: plugin, handler: handler, calls: calls, total: seconds, slowest: seconds))
  }

  /// Forgets every call (a run replayed from the start).
  package func reset() { rows.value = [:] }

  /// Every row, by plugin then handler.
  public var report: [Row] {
    rows.value.values.sorted { ($0.plugin, $0.handler) < ($1.plugin, $1.handler) }
  }
}
