import WaymarkCore

/// The runtime records the plugin host and the script runner make (docs/trace-format.md),
/// declared here rather than in the core, which knows nothing of plugins or scripts.
extension TraceEvent {
  /// `log`: a plugin's or script's `print`, or `map:log`.
  public static let log = TraceEvent(record: "log", tone: .log)
  /// `plugin_loaded`: a plugin was loaded.
  public static let pluginLoaded = TraceEvent(record: "plugin_loaded", tone: .lifecycle)
  /// `plugin_reloaded`: a plugin was hot-reloaded.
  public static let pluginReloaded = TraceEvent(record: "plugin_reloaded", tone: .lifecycle)
  /// `plugin_unloaded`: a plugin was unloaded (its file was deleted).
  public static let pluginUnloaded = TraceEvent(record: "plugin_unloaded", tone: .lifecycle)
  /// `plugin_error`: a plugin failed (error, budget, memory cap, wrong answer); it counts as nil.
  public static let pluginError = TraceEvent(record: "plugin_error", tone: .failure)
  /// `expect_failed`: a script's expectation failed.
  public static let expectFailed = TraceEvent(record: "expect_failed", tone: .failure)
  /// `script_error`: a script's own callback raised an error.
  public static let scriptError = TraceEvent(record: "script_error", tone: .failure)

  /// The records of plugins and scripts, in the order of docs/trace-format.md's table: what a
  /// reader of their traces (a `GoldenTrace` of a plugin host's map) knows besides the core's.
  public static let scriptingRecords: [TraceEvent] = [
    .log, .pluginLoaded, .pluginReloaded, .pluginUnloaded, .pluginError, .expectFailed, .scriptError,
  ]

  /// Every event of a trace a script or a plugin host makes: the core's, then these.
  package static let scriptingEvents: [TraceEvent] = coreEvents + scriptingRecords

  /// The records of a failure: a plugin's error, a failed expectation, a script's error.
  package static let failures: [TraceEvent] = [.pluginError, .expectFailed, .scriptError]
}

extension MapView {
  /// Adds a line to the trace, as a plugin's `print` or a script's log does; `source` is who
  /// printed it (the record's `plugin`).
  public func log(_ message: String, source: String? = nil) {
    note(.log) { record in
      record.message = MapView.capped(message)
      if let source { record.answerer = .string(source) }
    }
  }

  /// The longest message a log record keeps, in bytes of UTF-8.
  package static let longestLogMessage = 64 << 10

  /// `message`, cut to ``longestLogMessage`` bytes with a note of how much was cut.
  package static func capped(_ message: String) -> String {
    let bytes = message.utf8.count
    guard bytes > longestLogMessage else { return message }
    var kept = Substring(message)
    while kept.utf8.count > longestLogMessage {
      kept = kept.dropLast(max(1, (kept.utf8.count - longestLogMessage) / 4))
    }
    return kept + "… (\(bytes - kept.utf8.count) more bytes)"
  }
}
