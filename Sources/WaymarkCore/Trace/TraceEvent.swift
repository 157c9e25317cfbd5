/// What a trace record is of (docs/trace-format.md): one of the 23 callbacks, or a runtime
/// record of the module that makes it. Its ``rawValue`` is the record's `event` name, a
/// contract.
///
/// As GRDB's `ResultCode`, it is a struct with static members rather than a closed enum: the
/// core declares the callbacks' events and its own records here (`info_window_shown`,
/// `warning`, ...), and a module that makes records of its own declares them in an extension
/// of its own (WaymarkScripting: `log`, `plugin_error`, ...), so the core knows none of them.
/// Each event is declared once, so two events are equal when their names are; they match in a
/// `switch` as values do:
///
/// ```swift
/// switch record.event {
/// case .infoWindowShown, .infoWindowHidden: ...
/// case .callback(.didTapMarker): ...
/// default: ...
/// }
/// ```
///
/// A name read from a file becomes an event only through `named(_:in:)` with the events the
/// reader knows, so code never handles event names as loose strings.
public struct TraceEvent: Hashable, Sendable, CustomStringConvertible {
  /// The name as the trace spells it (`did_tap_marker`, `plugin_error`).
  public let rawValue: String
  /// The callback this record is of, nil for a runtime record.
  package let callback: DelegateCallback?
  /// How the text trace shows a record of this event.
  package let tone: TraceTone

  /// A runtime record named `name` (snake_case, as docs/trace-format.md lists it).
  package init(record name: String, tone: TraceTone) {
    rawValue = name
    callback = nil
    self.tone = tone
  }

  /// The record of a callback, named by its handler name (`did_tap_marker`).
  public static func callback(_ callback: DelegateCallback) -> TraceEvent { callbacks[callback.rawValue] }

  private init(callback: DelegateCallback) {
    rawValue = callback.name
    self.callback = callback
    tone = .plain
  }

  private static let callbacks = DelegateCallback.allCases.map(TraceEvent.init(callback:))

  /// The name, as the trace spells it.
  public var description: String { rawValue }

  /// Whether `record` is of the event `pattern`: `case TraceEvent.pluginError:` in a switch
  /// over records, as GRDB's `case ResultCode.SQLITE_BUSY:` over errors.
  package static func ~= (pattern: TraceEvent, record: TraceRecord) -> Bool { pattern == record.event }

  // MARK: The core's records

  /// `info_window_shown`: the map shows an info window (`marker`, `kind`).
  public static let infoWindowShown = TraceEvent(record: "info_window_shown", tone: .infoWindow)
  /// `info_window_hidden`: the shown info window went away (before its did_close_info_window).
  public static let infoWindowHidden = TraceEvent(record: "info_window_hidden", tone: .infoWindow)
  /// `view_redrawn`: a tracked live view changed what it shows, and the map drew it
  /// (`marker`, `view`: info_window or icon_view; R34, R36).
  public static let viewRedrawn = TraceEvent(record: "view_redrawn", tone: .plain)
  /// `deferred`: a change made during marker_info_window waits until the window is resolved (R13).
  public static let deferred = TraceEvent(record: "deferred", tone: .warning)
  /// `warning`: the map (or a plugin's loader) ignored something, and says why.
  public static let warning = TraceEvent(record: "warning", tone: .warning)
  /// `clusters_rendered`: a cluster manager changed the markers it shows (`zoom`, `clusters`,
  /// `markers`: the camera zoom, the cluster markers and all markers shown; R64).
  public static let clustersRendered = TraceEvent(record: "clusters_rendered", tone: .plain)

  /// The core's runtime records, in the order of docs/trace-format.md's table.
  package static let coreRecords: [TraceEvent] = [
    .infoWindowShown, .infoWindowHidden, .viewRedrawn, .deferred, .warning, .clustersRendered,
  ]

  /// Every event the core makes: the callbacks in the table's order, then its runtime
  /// records. A reader of traces that hold other modules' records adds theirs.
  package static let coreEvents: [TraceEvent] = callbacks + coreRecords

  /// The event of `events` named `name`, nil for a name that is none of them.
  package static func named(_ name: String, in events: [TraceEvent]) -> TraceEvent? {
    events.first { $0.rawValue == name }
  }

  /// The names of `events` as a JSON array (`["plugin_error","log"]`): how the pages'
  /// scripts get the names they compare records with, so that they follow the declarations.
  package static func jsonArray(_ events: [TraceEvent]) -> String {
    var out = ""
    TraceJSON.write(.list(events.map { .string($0.rawValue) }), to: &out)
    return out
  }
}

/// How the text trace shows a kind of record (`TraceText`): each event declares its own, so
/// the trace's colours follow the declarations of every module.
package enum TraceTone: Hashable, Sendable {
  /// The callbacks, and records shown as they are.
  case plain
  /// A failure (red): a plugin's error, a failed expectation, a script's error.
  case failure
  /// Something ignored or put off (yellow).
  case warning
  /// A line a plugin or script printed (cyan).
  case log
  /// Plugins coming and going (dim).
  case lifecycle
  /// Info windows shown and hidden (green).
  case infoWindow
}
