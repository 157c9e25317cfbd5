@testable import WaymarkCore

/// Records of a module the core knows nothing of, declared as WaymarkScripting declares its
/// own (`TraceEvent+Scripting.swift`): the core's trace, text and readers take them as they
/// take its own.
extension TraceEvent {
  /// A line the module printed.
  static let note = TraceEvent(record: "note", tone: .log)
  /// A check of the module's that failed.
  static let checkFailed = TraceEvent(record: "check_failed", tone: .failure)
  /// A part of the module's that was loaded.
  static let partLoaded = TraceEvent(record: "part_loaded", tone: .lifecycle)

  /// What a reader of this module's traces knows: the core's events, then these.
  static let testEvents: [TraceEvent] = coreEvents + [.note, .checkFailed, .partLoaded]
}

extension MapView {
  /// Adds a `note` record saying `message`, from `source` (its `plugin` field).
  func note(_ message: String, source: String) {
    note(.note) { record in
      record.message = message
      record.answerer = .string(source)
    }
  }
}
