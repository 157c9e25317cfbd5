/// What a trace record is of (docs/trace-format.md): one of the 23 callbacks, or one of the
/// runtime records the map, the plugin host and the script runner make. Its ``rawValue`` is
/// the record's `event` name, a contract; a name read from a file becomes an event only
/// through ``init(rawValue:)``, so code never handles event names as loose strings.
public enum TraceEvent: Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// The record of a callback, named by its handler name (`did_tap_marker`).
  case callback(DelegateCallback)
  /// `info_window_shown`: the map shows an info window (`marker`, `kind`).
  case infoWindowShown
  /// `info_window_hidden`: the shown info window went away (before its did_close_info_window).
  case infoWindowHidden
  /// `view_redrawn`: a tracked live view changed what it shows, and the map drew it
  /// (`marker`, `view`: info_window or icon_view; R34, R36).
  case viewRedrawn
  /// `deferred`: a change made during marker_info_window waits until the window is resolved (R13).
  case deferred
  /// `warning`: the map (or a plugin's loader) ignored something, and says why.
  case warning
  /// `log`: a plugin's or script's `print`, or `map:log`.
  case log
  /// `plugin_loaded`: a plugin was loaded.
  case pluginLoaded
  /// `plugin_reloaded`: a plugin was hot-reloaded.
  case pluginReloaded
  /// `plugin_unloaded`: a plugin was unloaded (its file was deleted).
  case pluginUnloaded
  /// `plugin_error`: a plugin failed (error, budget, memory cap, wrong answer); it counts as nil.
  case pluginError
  /// `expect_failed`: a script's expectation failed.
  case expectFailed
  /// `script_error`: a script's own callback raised an error.
  case scriptError
  /// `clusters_rendered`: a cluster manager changed the markers it shows (`zoom`, `clusters`,
  /// `markers`: the camera zoom, the cluster markers and all markers shown; R64).
  case clustersRendered

  /// The runtime records, in the order of docs/trace-format.md's table.
  private static let runtimeRecords: [TraceEvent] = [
    .infoWindowShown, .infoWindowHidden, .viewRedrawn, .deferred, .warning, .log, .pluginLoaded, .pluginReloaded,
    .pluginUnloaded, .pluginError, .expectFailed, .scriptError,
    .clustersRendered,
  ]

  /// Every event: the callbacks in the table's order, then the runtime records.
  public static let allCases: [TraceEvent] = DelegateCallback.allCases.map(TraceEvent.callback) + runtimeRecords

  private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

  /// The event named `rawValue` in a trace, nil for a name that is none of ``allCases``.
  public init?(rawValue: String) {
    guard let event = Self.byName[rawValue] else { return nil }
    self = event
  }

  /// The name as the trace spells it (`did_tap_marker`, `plugin_error`).
  public var rawValue: String {
    switch self {
    case .callback(let callback): callback.name
    case .infoWindowShown: "info_window_shown"
    case .infoWindowHidden: "info_window_hidden"
    case .viewRedrawn: "view_redrawn"
    case .deferred: "deferred"
    case .warning: "warning"
    case .log: "log"
    case .pluginLoaded: "plugin_loaded"
    case .pluginReloaded: "plugin_reloaded"
    case .pluginUnloaded: "plugin_unloaded"
    case .pluginError: "plugin_error"
    case .expectFailed: "expect_failed"
    case .scriptError: "script_error"
    case .clustersRendered: "clusters_rendered"
    }
  }

  /// The name, as the trace spells it.
  public var description: String { rawValue }

  /// The callback this record is of, nil for a runtime record.
  package var callback: DelegateCallback? {
    guard case .callback(let callback) = self else { return nil }
    return callback
  }

  /// The records of a failure: a plugin's error, a failed expectation, a script's error.
  package static let failures: [TraceEvent] = [.pluginError, .expectFailed, .scriptError]

  /// The names of `events` as a JSON array (`["plugin_error","log"]`): how the pages'
  /// scripts get the names they compare records with, so that they follow the enum.
  package static func jsonArray(_ events: [TraceEvent]) -> String {
    var out = ""
    TraceJSON.write(.list(events.map { .string($0.rawValue) }), to: &out)
    return out
  }
}
