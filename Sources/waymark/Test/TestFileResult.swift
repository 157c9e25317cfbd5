import WaymarkScripting

/// What one test file's run came to: written as JSON by the child process that ran it
/// (``TestWorker``), read back by `waymark test`.
struct TestFileResult: Codable, Equatable {
  /// Pass, fail or error.
  enum Status: String, Codable {
    /// Ran to its end, every expectation met, no unexpected plugin error, the golden matched.
    case pass
    /// Ran to its end, but something it checks did not hold.
    case fail
    /// Could not be loaded, stopped with an error, crashed, hung or ran out of memory.
    case error
  }

  /// One thing that went wrong, with what the trace showed just before it.
  struct Failure: Codable, Equatable {
    /// `expectation`, `plugin_error`, `golden` or `error`.
    var kind: String
    /// One line: `file:line: message`, or the plugin_error line, or the golden's summary.
    var message: String
    /// The text-trace lines just before it (or, for a golden, the first differences).
    var excerpt: [String] = []
  }

  /// The test file.
  var file: String
  /// How it went.
  var status: Status
  /// Every failure, in the order they happened; for an error, the reason first.
  var failures: [Failure] = []
  /// The golden file written (`--update`).
  var goldenWritten: String?
  /// Wall-clock seconds, measured by `waymark test` from start to end of the child.
  var seconds = 0.0
  /// The Lua lines that ran (`--coverage`).
  var coverage: [CoveredFile]?
  /// Where the plugins' handlers spent their time (`--profile`).
  var profile: [PluginProfile.Row]?
}
