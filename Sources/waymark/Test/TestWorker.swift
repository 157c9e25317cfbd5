import Foundation
import LuaKit
import WaymarkCore
import WaymarkScripting

/// The child side of `waymark test`: runs one test file and judges it. `waymark test` runs
/// it in a child process per file (``ChildProcessPool``), so a file that crashes, hangs or
/// leaks takes only its own process down.
enum TestWorker {
  /// How many text-trace lines a failure shows from just before it.
  static let excerptLines = 6

  /// What to run and how.
  struct Settings {
    var file = ""
    var options = ScriptOptions()
    var golden: String?
    var updatesGolden = false
    /// Whether the Lua lines that run are recorded (`--coverage`).
    var recordsCoverage = false
    /// Whether handler calls are timed (`--profile`).
    var profiles = false
  }

  /// Runs one test file and judges it.
  static func run(_ settings: Settings) -> TestFileResult {
    var options = settings.options
    let profile = settings.profiles ? PluginProfile() : nil
    options.plugins.profile = profile
    if settings.recordsCoverage { LuaCoverage.start() }
    let outcome = ScriptRunner.run(settings.file, options: options)
    var result = TestFileResult(file: settings.file, status: .pass)
    if settings.recordsCoverage { result.coverage = CoveredFile.from(LuaCoverage.stop()) }
    result.profile = profile?.report
    let records = outcome.records
    if let error = outcome.error {
      result.status = .error
      let stop = records.lastIndex { $0.event == .scriptError } ?? records.endIndex
      result.failures.append(.init(kind: "error", message: error, excerpt: excerpt(records, before: stop)))
    }
    let unexpected = Set(outcome.pluginProblems.filter { !$0.isExpected && !$0.isWarning }.map(\.index))
    for (index, record) in records.enumerated() {
      if record.event == .expectFailed {
        result.failures.append(
          .init(kind: "expectation", message: record.message ?? "", excerpt: excerpt(records, before: index)))
      } else if unexpected.contains(index), let problem = outcome.pluginProblems.first(where: { $0.index == index }) {
        result.failures.append(
          .init(kind: "plugin_error", message: problem.line, excerpt: excerpt(records, before: index)))
      }
    }
    if let golden = settings.golden, result.status != .error {
      compare(records, golden: golden, file: settings.file, updating: settings.updatesGolden, into: &result)
    }
    if result.status == .pass, !result.failures.isEmpty { result.status = .fail }
    return result
  }

  /// The golden trace of a test file: `DIR/<name>.jsonl`, name being the file's without `.lua`.
  static func goldenPath(of file: String, in folder: String) -> String {
    let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    return (folder.hasSuffix("/") ? folder : folder + "/") + name + ".jsonl"
  }

  private static func compare(
    _ records: [TraceRecord], golden folder: String, file: String, updating: Bool, into result: inout TestFileResult
  ) {
    let path = goldenPath(of: file, in: folder)
    switch GoldenTraceFile.check(records, at: path, update: updating) {
    case .matches: break
    case .written: result.goldenWritten = path
    case .missing:
      result.failures.append(
        .init(kind: "golden", message: "no golden trace \(path) (run with --update to write it)"))
    case .unusable(let reason): result.failures.append(.init(kind: "golden", message: "\(path): \(reason)"))
    case .differs(let lines):
      result.failures.append(
        .init(
          kind: "golden", message: "the trace differs from \(path): \(lines[0])",
          excerpt: ["- \(path)", "+ this run"] + lines.dropFirst()))
    }
  }

  /// The text-trace lines of the records just before `index`.
  static func excerpt(_ records: [TraceRecord], before index: Int) -> [String] {
    let end = min(records.count, index)
    let start = max(0, end - 200)  // enough to fold the camera frames just before
    let lines = TraceText().lines(Array(records[start..<end])).dropFirst()
    return Array(lines.suffix(excerptLines))
  }
}

extension Duration {
  /// The duration in whole milliseconds.
  var milliseconds: Int64 {
    let parts = components
    return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
  }
}
