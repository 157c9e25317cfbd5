import Foundation
import LuaKit
import WaymarkCore
import WaymarkScenarios
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
    /// Whether a file or case without a golden trace fails (`--golden-required`); otherwise
    /// it is compared with nothing.
    var requiresGolden = false
    /// Whether the Lua lines that run are recorded (`--coverage`).
    var recordsCoverage = false
    /// Whether handler calls are timed (`--profile`).
    var profiles = false
  }

  /// Runs one test file and judges it: the file as one case, or each case it declares.
  static func run(_ settings: Settings) -> TestFileResult {
    var options = settings.options
    let profile = settings.profiles ? PluginProfile() : nil
    options.plugins.profile = profile
    if settings.recordsCoverage { LuaCoverage.start() }
    let outcome = ScriptRunner.run(settings.file, options: options)
    var result = TestFileResult(file: settings.file, status: .pass)
    if settings.recordsCoverage {
      result.coverage = CoveredFile.from(
        LuaCoverage.stop(), loaded: outcome.files, project: FileManager.default.currentDirectoryPath)
    }
    result.profile = profile?.report
    result.files = outcome.files
    let records = outcome.records
    if let error = outcome.error {
      result.status = .error
      let stop = records.lastIndex { $0.event == .scriptError } ?? records.endIndex
      result.failures.append(.init(kind: .error, message: error, excerpt: excerpt(records, before: stop)))
    }
    let outside = outcome.cases.first.map { 0..<$0.records.lowerBound } ?? records.indices
    result.failures += failures(in: outside, of: outcome)
    let filters = settings.options.caseFilters
    if outcome.cases.isEmpty, result.failures.isEmpty,
      outcome.declaresCases || (!filters.isEmpty && !ScriptCases.anyMatches(filters, in: settings.file))
    {
      result.isFilteredOut = true  // every case it declares was filtered out, or its path
      return result
    }
    let golden = settings.golden.map { (folder: $0, update: settings.updatesGolden) }
    if let golden, result.status != .error, outcome.cases.isEmpty {
      let path = goldenPath(of: settings.file, in: golden.folder)
      if golden.update, !result.failures.isEmpty {
        result.goldenSkipped = path
      } else {
        let verdict = compare(Array(records), path: path, settings)
        result.failures += verdict.failures
        result.goldenWritten = verdict.written
        result.goldenMissing = verdict.missing
      }
    }
    var goldens: [String: String] = [:]
    for found in outcome.cases {
      var judged = TestFileResult.Case(name: found.name, line: found.line, status: .pass, seconds: found.seconds)
      if found.isPending {
        judged.status = settings.options.listsCases ? .pass : .skip
        result.cases.append(judged)
        continue
      }
      for error in found.errors {
        let stop = records[found.records].firstIndex { $0.event == .scriptError && $0.message == error }
        judged.failures.append(
          .init(kind: .error, message: error, excerpt: excerpt(records, from: found.records.lowerBound, before: stop)))
      }
      judged.failures += failures(in: found.records, of: outcome).filter { $0.kind != .error }
      if let golden, result.status != .error {
        let path = casePath(of: found.name, file: settings.file, in: golden.folder)
        if let other = goldens.updateValue(found.name, forKey: path) {
          judged.failures.append(
            .init(
              kind: .golden, message: "\(other) and \(found.name) would share the golden trace \(path); rename one"))
        } else if golden.update, !judged.failures.isEmpty {
          judged.goldenSkipped = path
        } else {
          let verdict = compare(Array(records[found.records]), path: path, settings)
          judged.failures += verdict.failures
          judged.goldenWritten = verdict.written
          judged.goldenMissing = verdict.missing
        }
      }
      judged.status = !found.errors.isEmpty ? .error : judged.failures.isEmpty ? .pass : .fail
      result.cases.append(judged)
    }
    if result.status == .pass,
      !result.failures.isEmpty || result.cases.contains(where: { $0.status == .fail || $0.status == .error })
    {
      result.status = .fail
    }
    return result
  }

  /// The failed expectations and unexpected plugin errors among the records at `range`.
  private static func failures(in range: Range<Int>, of outcome: ScriptOutcome) -> [TestFileResult.Failure] {
    let records = outcome.records
    let unexpected = Dictionary(
      outcome.pluginProblems.filter { !$0.isExpected && !$0.isWarning && range.contains($0.index) }.map {
        ($0.index, $0)
      }, uniquingKeysWith: { first, _ in first })
    var found: [TestFileResult.Failure] = []
    for index in range {
      if records[index].event == .expectFailed {
        found.append(
          .init(
            kind: .expectation, message: records[index].message ?? "",
            excerpt: excerpt(records, from: range.lowerBound, before: index)))
      } else if let problem = unexpected[index] {
        found.append(
          .init(
            kind: .pluginError, message: problem.line,
            excerpt: excerpt(records, from: range.lowerBound, before: index)))
      }
    }
    return found
  }

  /// The golden trace of a test file: `DIR/<name>.jsonl`, name being the file's without `.lua`.
  static func goldenPath(of file: String, in folder: String) -> String {
    let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    return (folder.hasSuffix("/") ? folder : folder + "/") + name + ".jsonl"
  }

  /// The golden trace of a case: `DIR/<file>/<case>.jsonl`, `<file>` the file's name without
  /// `.lua`, `<case>` its full name with every character but letters, digits, `-` and `.`
  /// made `_` (and a leading `.` too, so no name is hidden or a parent folder).
  static func casePath(of name: String, file: String, in folder: String) -> String {
    var safe = String(
      name.unicodeScalars.map { scalar -> Character in
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == ".")
          ? Character(scalar) : "_"
      }.prefix(200))
    if safe.isEmpty || safe.hasPrefix(".") { safe = "_" + safe }
    return String(goldenPath(of: file, in: folder).dropLast(".jsonl".count)) + "/" + safe + ".jsonl"
  }

  /// The records compared with the golden at `path` (or written there, with `--update`):
  /// the failures, the golden written, and the golden missing when that is no failure.
  private static func compare(_ records: [TraceRecord], path: String, _ settings: Settings) -> (
    failures: [TestFileResult.Failure], written: String?, missing: String?
  ) {
    let folder = settings.golden ?? ""
    switch GoldenTraceFile.check(
      records, at: path, update: settings.updatesGolden, within: folder, events: TraceEvent.scriptingEvents)
    {
    case .matches: return ([], nil, nil)
    case .written: return ([], path, nil)
    case .missing where !settings.requiresGolden: return ([], nil, path)
    case .missing:
      return ([.init(kind: .golden, message: "no golden trace \(path) (run with --update to write it)")], nil, nil)
    case .unusable(let reason): return ([.init(kind: .golden, message: "\(path): \(reason)")], nil, nil)
    case .differs(let lines):
      return (
        [
          .init(
            kind: .golden, message: "the trace differs from \(path): \(lines[0])",
            excerpt: ["- \(path)", "+ this run"] + lines.dropFirst())
        ], nil, nil
      )
    }
  }

  /// The text-trace lines of the records just before `index`.
  static func excerpt(_ records: [TraceRecord], from first: Int = 0, before index: Int?) -> [String] {
    let end = min(records.count, index ?? records.count)
    let start = max(first, end - 200)  // enough to fold the camera frames just before
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
