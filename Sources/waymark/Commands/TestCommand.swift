import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// `waymark test [PATH]...`: runs every `*_test.lua` under the folders given (and every file
/// named directly), each in its own process, several at once, and reports each file and
/// each of its cases, then `N passed, N failed` (docs/testing.md).
struct TestCommand: Command {
  static let configuration = CommandConfiguration(
    name: "test",
    abstract:
      "run every *_test.lua and *_spec.lua in parallel, each isolated; 'N passed, N failed' (JUnit, TAP, shards)",
    summary: """
      Runs every *_test.lua and *_spec.lua file under the folders given (--pattern: the .lua files whose
      name matches; every file named directly; with no PATH, under the current folder), each in its own
      process, several at once. A file may hold cases in busted's language (describe, context, insulate,
      expose, it, spec, test, pending, before_each, after_each, setup, teardown, lazy_ and strict_ setups
      and teardowns, finally; #tags in names for --tags and --exclude-tags), each run on a fresh map. Prints a line per file and
      per case (pass, fail, error or skip, and its time), each failure with its file:line and the trace just
      before it, then 'N passed, N failed' (', N skipped' after, when a case is pending).
      A test fails on a failed expectation, on a plugin_error it did not declare with
      expect_plugin_error(pattern), or on a trace that differs from its golden trace. Exit 0 when all pass,
      1 when any fails, 3 when a file could not be loaded or stopped with an error (or crashed, hung or ran
      out of memory).
      """,
    examples: [
      "waymark test tests",
      "waymark test tests --golden tests/golden",
      "waymark test tests --junit report.xml --shard 2/4",
      "waymark test tests --filter 'checkout' -x",
      "waymark test --run nightly -o TAP",
      "waymark test scripts/marker_events.lua scripts/drag.lua -j 1",
    ])

  static let options: [Option<TestCommand>] =
    [
      .value(
        "j", "N", \.jobs, help: "run N files at once (default: the number of cores)",
        parse: { (text) throws(Refusal) in
          try OptionValue.whole(atLeast: 1, "a whole number of files at once, at least 1")(text)
        }),
      .text("golden", "DIR", \.worker.golden, help: "compare each file's JSON trace with DIR/<name>.jsonl"),
      .flag("update", \.worker.updatesGolden, help: "with --golden: write the golden traces instead"),
      .flag(
        "golden-required", \.worker.requiresGolden,
        help: "with --golden: fail a file or case that has no golden trace (else it is compared with nothing)"),
      .text("junit", "FILE", \.junit, help: "write a JUnit XML report to FILE"),
      .flag("tap", \.tap, help: "print TAP (version 13) instead of the lines for people"),
      .value(
        "output", "NAME", \.output,
        help: "print as busted's output NAME: plainTerminal, utfTerminal, TAP, json, junit or gtest",
        parse: { (text) throws(Refusal) -> TestOutput? in try OptionValue.choice(TestOutput.self)(text) }),
      .value(
        "o", "NAME", \.output, help: "the same as --output",
        parse: { (text) throws(Refusal) -> TestOutput? in try OptionValue.choice(TestOutput.self)(text) }),
      .text("run", "TASK", \.task, help: "read the task TASK of ./.busted (default: its default task)"),
      .text(
        "helper", "FILE", \.helper,
        help: "run the Lua file FILE in each test file's globals before the file, as busted"),
      .values(
        "filter", "PATTERN", \.worker.options.caseFilters,
        help: "run only the cases whose full name contains a match of the Lua pattern (repeatable: any of them)",
        check: { pattern in ScriptCases.patternProblem(pattern).map { Refusal("not a Lua pattern: \($0)") } }),
      .values(
        "pattern", "PATTERN", \.patterns,
        help:
          "find the .lua files whose name holds a match of the Lua pattern, not *_test.lua and *_spec.lua (repeatable)",
        check: { pattern in ScriptCases.patternProblem(pattern).map { Refusal("not a Lua pattern: \($0)") } }),
      tagList("tags", \.worker.options.caseTags, help: "run only the cases whose full name holds #TAG for one of them"),
      tagList(
        "exclude-tags", \.worker.options.excludedCaseTags,
        help: "leave out the describes and cases whose name holds #TAG for one of them"),
      .flag("fail-fast", \.failsFast, help: "stop at the first case that fails (with -j 1 nothing after it runs)"),
      .flag("x", \.failsFast, help: "the same as --fail-fast"),
      .flag("list", \.lists, help: "print each case's file:line and full name without running any"),
      .flag(
        "shuffle", \.worker.options.shufflesCases,
        help: "run each block's cases in a shuffled order, as busted (the same order for the same --seed)"),
      .flag("shuffle-tests", \.worker.options.shufflesCases, help: "the same as --shuffle"),
      .value(
        "seed", "N", \.worker.options.shuffleSeed,
        help: "the seed of --shuffle and randomize() (default: each file's own)",
        parse: { (text) throws(Refusal) -> Int? in
          guard let seed = Int(text) else { throw Refusal("expected a whole number") }
          return seed
        }),
      .flag(
        "watch", \.watches, help: "rerun, on each save, the test files that changed or that use a file that changed"),
      .value(
        "shard", "I/N", \.shard, help: "run only the I-th of N stable shards of the files (I from 1)",
        parse: TestFiles.shard),
      .text("coverage", "FILE", \.coverage, help: "write an lcov tracefile of the plugin and script lines that ran"),
      .flag("profile", \.worker.profiles, help: "print, per plugin and handler, calls, total and slowest time"),
      ScriptOptionParsing.plugins.lifted(\.worker.options),
      .value(
        "policy", "NAME", \.worker.options.policy,
        help: "ios, android or web: overrides the policy the scripts' waymark.map{} asks for",
        parse: { (text) throws(Refusal) -> String? in try OptionValue.policy(text) }),
    ] + HandlerBudgets.options.map { $0.lifted(\.budgets) } + [
      .value(
        "timeout", "SECONDS", \.timeout, help: "stop a file that runs longer (default 60)",
        parse: { (text) throws(Refusal) in
          guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
            throw Refusal("expected a positive number of seconds")
          }
          return seconds
        }),
      .value(
        "memory", "MB", \.memoryLimit, help: "stop a file whose process grows past MB MiB (default 2048)",
        parse: { (text) throws(Refusal) in try OptionValue.whole(atLeast: 1, "a positive number of MiB")(text) << 20 }),
    ]

  /// busted's `--tags=a,b`: repeatable, each value a comma-separated list of tags.
  private static func tagList(
    _ name: String, _ keyPath: WritableKeyPath<TestCommand, [String]> & Sendable, help: String
  ) -> Option<TestCommand> {
    Option(name: name, placeholder: "TAG[,TAG]...", repeatable: true, help: help) {
      (command, text) throws(UsageError) in
      let tags = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      for tag in tags {
        if let problem = ScriptCases.patternProblem("#" + tag) {
          throw UsageError(message: "--\(name) \(text): not a Lua pattern: \(problem)")
        }
      }
      command[keyPath: keyPath] += tags
    }
  }

  static let positionals = Positionals<TestCommand>.many("[PATH]...", \.paths)

  var paths: [String] = []
  /// busted's `--pattern`: Lua patterns that choose the test files in folders.
  var patterns: [String] = []
  var jobs = ProcessInfo.processInfo.activeProcessorCount
  var worker = TestWorker.Settings()
  var budgets = HandlerBudgets()
  var junit: String?
  var coverage: String?
  var tap = false
  /// busted's output (`-o`), nil for the lines for people.
  var output: TestOutput?
  /// The task of `.busted` to read (`--run`), nil for `default`.
  var task: String?
  /// busted's helper (`--helper`, else `.busted`'s), nil for none.
  var helper: String?
  var lists = false
  var failsFast = false
  var watches = false
  var shard: (index: Int, count: Int)?
  var timeout = 60.0
  /// The most memory a file's process may take, in bytes.
  var memoryLimit = 2048 << 20

  /// What is wrong with the current folder's project file, reported when the command runs.
  var projectError: ProjectError?

  mutating func validate() throws(UsageError) {
    let busted = try BustedConfiguration.load(task: task)
    if let busted { try adopt(busted) }
    let root = FileManager.default.currentDirectoryPath
    let lpath = busted.flatMap { $0.lpath.isEmpty ? nil : $0.lpath } ?? BustedConfiguration.defaultLPath
    worker.options.testSuite = (
      root, lpath.map { ScriptFiles.resolve($0, against: root) }, try helperFile(busted: busted, root: root)
    )
    adoptProjectDefaults()
    if paths.isEmpty { paths = ["."] }
    budgets.apply(to: &worker.options.plugins, defaultInstructions: HandlerBudgets.testInstructions)
    if worker.updatesGolden, worker.golden == nil {
      throw UsageError(message: "--update writes golden traces: give their folder with --golden DIR")
    }
    if worker.requiresGolden, worker.golden == nil {
      throw UsageError(message: "--golden-required asks for golden traces: give their folder with --golden DIR")
    }
    worker.options.scriptBudget = .seconds(max(1, Int64(timeout.rounded(.up))))
    worker.recordsCoverage = coverage != nil
    worker.options.listsCases = lists
    worker.options.stopsAtFirstFailedCase = failsFast
  }

  /// The values of `.busted` that the command line did not give.
  /// The helper's absolute path (`--helper` wins over `.busted`'s), which must be a file.
  private func helperFile(busted: BustedConfiguration?, root: String) throws(UsageError) -> String? {
    guard let given = helper ?? busted?.helper else { return nil }
    let path = ScriptFiles.resolve(given, against: root)
    guard FileManager.default.isReadableFile(atPath: path), !PluginFiles.isDirectory(path) else {
      let origin = helper != nil ? "--helper" : "\(BustedConfiguration.fileName): helper"
      throw UsageError(message: "\(origin) \(given): no such file (looked for \(path))")
    }
    return path
  }

  private mutating func adopt(_ busted: BustedConfiguration) throws(UsageError) {
    let file = BustedConfiguration.fileName
    if paths.isEmpty { paths = busted.roots }
    if patterns.isEmpty { patterns = busted.patterns }
    for (list, key) in [(busted.patterns, "pattern"), (busted.tags, "tags"), (busted.excludedTags, "exclude-tags")] {
      for item in list {
        let pattern = key == "pattern" ? item : "#" + item
        if let problem = ScriptCases.patternProblem(pattern) {
          throw UsageError(message: "\(file): \(key) \(item): not a Lua pattern: \(problem)")
        }
      }
    }
    if worker.options.caseTags.isEmpty { worker.options.caseTags = busted.tags }
    if worker.options.excludedCaseTags.isEmpty { worker.options.excludedCaseTags = busted.excludedTags }
    if output == nil, let name = busted.output {
      guard let chosen = TestOutput(rawValue: name) else {
        let names = TestOutput.allCases.map(\.rawValue).joined(separator: ", ")
        throw UsageError(message: "\(file): output \(name): expected one of \(names)")
      }
      output = chosen
    }
  }

  /// Takes `test.paths` and `test.golden` of the current folder's project (`waymark.lua`)
  /// where the command line gives no PATH or no `--golden`: flags win.
  private mutating func adoptProjectDefaults() {
    guard paths.isEmpty || worker.golden == nil else { return }
    do {
      guard let project = try Project.find(from: ".") else { return }
      if paths.isEmpty { paths = project.test.paths.map(Self.shown) }
      if worker.golden == nil { worker.golden = project.test.golden.map(Self.shown) }
    } catch {
      projectError = error
    }
  }

  /// A project's path as the reports show it: relative to the current folder when inside it.
  private static func shown(_ url: URL) -> String {
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
    let path = url.path
    guard path.hasPrefix(here + "/") else { return path == here ? "." : path }
    return String(path.dropFirst(here.count + 1))
  }

  func execute() throws(CommandFailure) -> Int32 {
    if let projectError { throw CommandFailure(message: projectError.message, code: ExitCode.scriptError) }
    for folder in worker.options.pluginFolders where !isFolder(folder) && !ScriptOptionParsing.isPluginFile(folder) {
      throw CommandFailure(
        message:
          "--plugins \(folder): no such folder or .lua file (looked for \(URL(fileURLWithPath: folder).standardizedFileURL.path))",
        code: ExitCode.scriptError)
    }
    let all: [String]
    do {
      all = try TestFiles.find(paths, patterns: patterns)
    } catch {
      throw CommandFailure(message: error.message, code: ExitCode.usage)
    }
    guard !all.isEmpty else {
      throw CommandFailure(
        message: patterns.isEmpty
          ? "no *_test.lua or *_spec.lua files in \(paths.joined(separator: " ")); name test files like tap_test.lua"
          : "no .lua file whose name matches \(patterns.joined(separator: " or ")) in \(paths.joined(separator: " "))",
        code: ExitCode.usage)
    }
    let files = shard.map { TestFiles.shard(all, index: $0.index, count: $0.count) } ?? all
    if let golden = worker.golden { try checkGoldenNames(files, golden) }
    if watches { return try TestWatcher(command: self).run(files) }
    return try report(run(files))
  }

  /// Prints the reports and the closing line; the exit status.
  func report(_ results: [TestFileResult]) throws(CommandFailure) -> Int32 {
    if lists {
      let count = results.reduce(0) { $0 + $1.counted.count }
      Output.print("\(count) case(s) in \(results.filter { !$0.counted.isEmpty }.count) file(s)")
      return results.contains { $0.status == .error } ? ExitCode.scriptError : ExitCode.success
    }
    if let junit { try write(TestReports.junit(results), to: junit) }
    if let coverage {
      let report = CoverageReport.lcov(results)
      for path in report.leftOut {
        Output.error(
          "waymark test: \(path) is left out of \(coverage): its name holds a line break or another control character, which lcov cannot hold"
        )
      }
      try write(report.text, to: coverage)
    }
    if worker.profiles { TestReports.profile(results).forEach(Output.print) }
    if let output {
      let seconds = results.map(\.seconds).max() ?? 0
      try Output.write(output.ending(results, seconds: seconds, colour: TestReports.usesColour))
    } else {
      if tap { Output.print("1..\(results.reduce(0) { $0 + $1.counted.count })") }
      if let golden = worker.golden, let line = TestReports.goldensMissing(results, in: golden) {
        Output.print(tap ? "# " + line : line)
      }
      Output.print(TestReports.summary(results))
    }
    if results.contains(where: { $0.status == .error }) { return ExitCode.scriptError }
    if results.contains(where: { $0.status == .fail }) { return ExitCode.expectationFailed }
    return ExitCode.success
  }

  /// Runs the files, printing each file's report in path order as soon as it and every file
  /// before it have finished. With `--fail-fast`, no file starts after one failed.
  func run(_ files: [String]) throws(CommandFailure) -> [TestFileResult] {
    var results = [TestFileResult?](repeating: nil, count: files.count)
    var printed = 0, points = 1
    var failed = false
    let width = min(60, files.map { TestReports.safe($0).count }.max() ?? 0)
    let colour = TestReports.usesColour
    if tap, !lists, output == nil { Output.print(TestReports.tapHeader) }
    if let output, !lists { try? Output.write(output.beginning(colour: colour)) }
    let pool = ChildProcessPool(parallel: jobs, timeLimit: timeout + 5, memoryLimit: memoryLimit)
    try pool.run(files.count) { index in
      var settings = worker
      settings.file = files[index]
      return TestReportBounds.encoded(TestWorker.run(settings))
    } finished: { index, child, stop in
      var result = Self.result(of: child, file: files[index], stop: stop, timeout: timeout)
      result.seconds = (ContinuousClock.now - child.started).seconds
      results[index] = result
      failed = failed || (failsFast && result.status != .pass)
      while printed < files.count, let next = results[printed] {
        printed += 1
        let lines: [String]
        if lists {
          lines = TestReports.list(next)
        } else if let output {
          try? Output.write(output.progress(next, from: points, colour: colour))
          points += next.counted.count
          lines = []
        } else if tap {
          lines = TestReports.tap(next, from: points)
          points += next.counted.count
        } else {
          lines = TestReports.lines(next, width: width, colour: colour)
        }
        lines.forEach(Output.print)
      }
      return !failed
    }
    return results.compactMap { $0 }
  }

  /// The result a worker wrote for a file, or an error saying what happened to it.
  private static func result(
    of child: ChildProcessPool.Finished, file: String, stop: ChildProcessPool.Stop?, timeout: Double
  ) -> TestFileResult {
    var reason: String
    switch (stop, child.ending) {
    case (.timedOut?, _): reason = "stopped: it ran longer than \(formatNumber(timeout)) s (--timeout)"
    case (.memory(let bytes)?, _): reason = "stopped: its process grew to \(bytes >> 20) MiB of memory (--memory)"
    case (nil, .signaled(let signal)?): reason = "crashed: killed by \(ChildProcess.name(ofSignal: signal))"
    case (nil, .exited(0)?) where child.outputOverflowed:
      reason = TestReportBounds.tooLarge("more") + ": refused unread"
    case (nil, .exited(let status)?):
      if status == 0, !child.outputOverflowed,
        let result = try? JSONDecoder().decode(TestFileResult.self, from: Data(child.output))
      {
        return result
      }
      reason = "crashed: its process exited with status \(status) without a result"
    case (nil, nil): reason = "crashed"
    }
    let tail = child.errorText.split(separator: "\n").suffix(TestWorker.excerptLines).map(String.init)
    return TestFileResult(file: file, status: .error, failures: [.init(kind: .error, message: reason, excerpt: tail)])
  }

  /// Two files whose goldens would be the same file are a usage error.
  private func checkGoldenNames(_ files: [String], _ folder: String) throws(CommandFailure) {
    var owners: [String: String] = [:]
    for file in files {
      let golden = TestWorker.goldenPath(of: file, in: folder)
      if let other = owners[golden] {
        throw CommandFailure(
          message: "\(other) and \(file) would share the golden trace \(golden); rename one of them",
          code: ExitCode.usage)
      }
      owners[golden] = file
    }
  }

  private func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
  }

  private func write(_ text: String, to path: String) throws(CommandFailure) {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    } catch {
      throw CommandFailure(message: "cannot write \(path): \(CommandFailure.reason(error))", code: ExitCode.scriptError)
    }
  }
}
