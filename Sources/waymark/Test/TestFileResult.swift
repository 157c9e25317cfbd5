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
    /// Could not be loaded, stopped with an error, crashed, hung or ran out of memory (a
    /// case: an error stopped its `it`, a `before_each` or an `after_each`).
    case error
    /// A pending case: declared, never run.
    case skip
  }

  /// One case of a file that declares them (`it`, `pending`).
  struct Case: Codable, Equatable {
    /// Its describes' names and its own, joined by spaces.
    var name: String
    /// The line of the file where it was declared.
    var line: Int
    /// How it went.
    var status: Status
    /// Every failure, in the order they happened.
    var failures: [Failure] = []
    /// The golden file written (`--update`).
    var goldenWritten: String?
    /// The golden file `--update` did not write, because the case fails.
    var goldenSkipped: String?
    /// The golden file that does not exist, so the case was compared with nothing.
    var goldenMissing: String?
    /// Wall-clock seconds it took.
    var seconds = 0.0
  }

  /// One thing that went wrong, with what the trace showed just before it.
  struct Failure: Codable, Equatable {
    /// What went wrong; its raw value names it in reports (TAP, JUnit's `type`).
    enum Kind: String, Codable {
      /// An `expect` (or luassert assertion) that did not hold.
      case expectation
      /// A plugin_error record in the trace.
      case pluginError = "plugin_error"
      /// A golden trace missing, unusable or different.
      case golden
      /// The file or case could not run to its end.
      case error
    }

    /// What went wrong.
    var kind: Kind
    /// One line: `file:line: message`, or the plugin_error line, or the golden's summary.
    var message: String
    /// The text-trace lines just before it (or, for a golden, the first differences).
    var excerpt: [String] = []
  }

  /// The test file.
  var file: String
  /// How it went.
  var status: Status
  /// Every failure, in the order they happened; for an error, the reason first. In a file
  /// with cases, only what happened outside them.
  var failures: [Failure] = []
  /// Its cases, in order; empty when it declares none (the file is then one case).
  var cases: [Case] = []
  /// The golden file written (`--update`).
  var goldenWritten: String?
  /// The golden file `--update` did not write, because the file fails.
  var goldenSkipped: String?
  /// The golden file that does not exist, so the file was compared with nothing.
  var goldenMissing: String?
  /// Wall-clock seconds, measured by `waymark test` from start to end of the child.
  var seconds = 0.0
  /// The files its run read (it, its modules, plugins and their modules) and the plugin
  /// folders it loaded, for `--watch`.
  var files: [String] = []
  /// The Lua lines that ran (`--coverage`).
  var coverage: [CoveredFile]?
  /// Where the plugins' handlers spent their time (`--profile`).
  var profile: [PluginProfile.Row]?

  /// Whether `--filter` left it out: it declares no case, and no pattern matches its path.
  var isFilteredOut = false

  /// Whether the file counts as a case of its own: it declares none (and the filters kept
  /// it), or something went wrong outside its cases (an error, an expectation at its top
  /// level).
  var isOwnCase: Bool { (cases.isEmpty && !isFilteredOut) || !failures.isEmpty }

  /// What the closing line counts: the file's own case (``isOwnCase``), then each case.
  var counted: [Status] { (isOwnCase ? [status] : []) + cases.map(\.status) }

  /// The golden files missing for the file and its cases (compared with nothing).
  var goldensMissing: [String] { [goldenMissing].compactMap { $0 } + cases.compactMap(\.goldenMissing) }
}
