/// The name of a trace record (docs/trace-format.md): a callback's handler name, or one of
/// the runtime records the map, the plugin host and the script runner make. The names are a
/// contract; code names them through the members below, never as loose strings.
public struct TraceEvent: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The name as the trace spells it.
  public let rawValue: String

  /// The event of this name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The event of this name, written as a literal (`record.event == "log"`).
  public init(stringLiteral name: String) { rawValue = name }

  /// The record of a callback.
  init(_ callback: DelegateCallback) { rawValue = callback.name }

  /// The name, as the trace spells it.
  public var description: String { rawValue }

  /// The callback this record is of, nil for a runtime record.
  package var callback: DelegateCallback? { DelegateCallback(name: rawValue) }

  /// The map shows an info window (`marker`, `kind`).
  package static let infoWindowShown: TraceEvent = "info_window_shown"
  /// The shown info window went away (before its did_close_info_window).
  package static let infoWindowHidden: TraceEvent = "info_window_hidden"
  /// A tracked live view changed what it shows, and the map drew it (`marker`, `view`:
  /// info_window or icon_view; R34, R36).
  package static let viewRedrawn: TraceEvent = "view_redrawn"
  /// A change made during marker_info_window waits until the window is resolved (R13).
  package static let deferred: TraceEvent = "deferred"
  /// The map ignored something, and says why.
  package static let warning: TraceEvent = "warning"
  /// A plugin's or script's `print`, or `map:log`.
  package static let log: TraceEvent = "log"
  /// A plugin was loaded.
  package static let pluginLoaded: TraceEvent = "plugin_loaded"
  /// A plugin was hot-reloaded.
  package static let pluginReloaded: TraceEvent = "plugin_reloaded"
  /// A plugin was unloaded (its file was deleted).
  package static let pluginUnloaded: TraceEvent = "plugin_unloaded"
  /// A plugin failed (error, budget, memory cap, wrong answer); it counts as nil.
  package static let pluginError: TraceEvent = "plugin_error"
  /// A script's expectation failed.
  package static let expectFailed: TraceEvent = "expect_failed"
  /// A script's own callback raised an error.
  package static let scriptError: TraceEvent = "script_error"
}
