import LuaKit
import WaymarkCore
import WaymarkRender
import WaymarkScripting

/// Runs a scripted demo: a Lua script that builds a map with `waymark.map{...}`, drives it
/// (taps, drags, gestures, time) and checks what happened with `expect`, `expect_eq` and
/// `expect_near` (README, "Write a scenario").
///
/// ```swift
/// let outcome = ScriptRunner.run("scripts/marker_events.lua")
/// print(outcome.records.map(TraceJSON.line).joined(separator: "\n"))
/// ```
///
/// The script runs in a sandbox like a plugin's (docs/plugins.md), with time control
/// (`map:advance`, `map:settle`) and the `waymark` module. Each map it makes gets the plugins
/// of ``ScriptOptions/pluginFolders`` and of its own `plugins` list (relative to the
/// script). A script drives one map at a time: `waymark.map` again retires the previous map
/// (its plugins' `teardown` runs) and starts the new one at time 0, on the same trace.
public enum ScriptRunner {
  /// Runs the script at `path` to its end and returns its trace, failed expectations and
  /// the error that stopped it, if any. Never throws and never crashes on bad input.
  public static func run(_ path: String, options: ScriptOptions = ScriptOptions()) -> ScriptOutcome {
    let session = ScriptSession(path: path, options: options)
    session.run()
    guard session.needsExactReplay, options.plugins.instructionBudget != nil,
      options.plugins.instructionCounting == .fast
    else { return session.outcome }
    // A handler call lasted long enough that it may have passed its instruction budget:
    // the run is deterministic, so it is run again counting every instruction, and that
    // run's verdicts are the ones reported (docs/testing.md, "The instruction budget").
    var exact = options
    exact.plugins.instructionCounting = .exact
    exact.plugins.profile?.reset()
    let replay = ScriptSession(path: path, options: exact)
    replay.run()
    var outcome = replay.outcome
    outcome.wasReplayedExactly = true
    return outcome
  }
}

/// One run of one script.
final class ScriptSession {
  let path: String
  let folder: String
  let options: ScriptOptions
  let trace = TraceLog()
  var outcome = ScriptOutcome()
  private(set) var state: LuaState?
  /// The script's `expect_plugin_error` patterns, with where each was declared.
  var expectedPluginErrors: [(pattern: String, location: String)] = []
  /// `(pattern, message)` → whether the message matches the Lua pattern (the script library's).
  var pluginErrorMatcher: LuaRef?
  /// The script state's bridge (the state owns it).
  private(set) var bridge: LuaMapBridge?
  let modules: ModuleLoader
  /// The map the script drives now and its plugins.
  private(set) var current: (map: MapView, host: PluginHost)?
  /// What the script's chunk returned, when a table (a live session shows its fields).
  private(set) var returned: LuaRef?
  /// The accessors of the script's top-level locals, name → `{ getter, setter }`, when
  /// ``ScriptOptions/capturesLocals`` asked for them and the main chunk ran to its end.
  private(set) var locals: LuaRef?
  /// Whether the script's chunk was loaded and started (false: unreadable or a syntax error).
  private(set) var didStart = false
  private var hostFiles: Set<String> = []
  /// Whether a plugin host of this run asked for an exact replay (fast instruction counting).
  private(set) var needsExactReplay = false
  private let snapshots: SnapshotWriter
  /// The table that drives the file's cases (``ScriptCases``).
  var caseControl: LuaRef?
  /// The table that tells a failed luassert assertion from an error (``ScriptAssertions``),
  /// in a test file.
  var assertionControl: LuaRef?
  /// Whether the file is a test file (`*_test.lua`, `*_spec.lua`), which has luassert.
  private let isTestFile: Bool
  /// The errors of the case that runs now; nil outside a case.
  var caseErrors: [String]?
  /// How many of the trace's records have been classified (``classifyPluginErrors(endingAt:)``).
  var classifiedRecords = 0
  private let recorder: ReplayRecorder?
  /// The local clock of the current map (its `clock`, else the options'), for the script's
  /// own `os.time` and `os.date`; before the first map, the options'.
  private(set) var clock: LocalClock?
  /// What is wrong with the script's project file, if anything: the run stops before it starts.
  private let projectError: ProjectError?

  init(path: String, options given: ScriptOptions) {
    self.path = path
    var options = given
    do {
      options = try given.resolvingProject(for: path)
      projectError = nil
    } catch {
      projectError = error
    }
    // The script and its plugins find modules in the same roots (the project's `modules`, or
    // the command line's), and no link in the project may lead out of it.
    if !options.moduleRoots.isEmpty { options.plugins.moduleRoots = options.moduleRoots }
    if let project = options.project { options.plugins.projectFolder = project.folder }
    self.options = options
    clock = options.clock
    snapshots = SnapshotWriter(folder: options.snapshotFolder, byteLimit: options.snapshotBytes)
    recorder = options.recordsReplay ? ReplayRecorder() : nil
    folder = PluginFiles.folder(of: path)
    let isTestFile = SandboxGlobals.isTestFile(path)
    self.isTestFile = isTestFile
    modules =
      isTestFile
      ? Self.testModules(folder: folder, options: options)
      : ModuleLoader(folder: folder, roots: options.plugins.moduleRoots, project: options.plugins.projectFolder)
    trace.capacity = options.traceCapacity
  }

  /// The modules of a test file, found as busted run from the suite's root finds them: the
  /// file's folder, the suite's `lpath`, the module roots, the suite root's `?.lua` and
  /// `?/init.lua`, then luassert's and say's system tree (as busted's `package.path` ends
  /// with the system's).
  private static func testModules(folder: String, options: ScriptOptions) -> ModuleLoader {
    let roots = options.plugins.moduleRoots.map { ScriptFiles.absolute($0.path) }
    let system = [ScriptAssertions.root].compactMap { $0 }
    guard let suite = options.testSuite else {
      return ModuleLoader(
        folder: folder, roots: options.plugins.moduleRoots + system, project: options.plugins.projectFolder)
    }
    let path =
      suite.lpath + ModuleLoader.templates(of: roots) + ModuleLoader.templates(of: [suite.root])
      + ModuleLoader.templates(of: system.map(\.path))
    return ModuleLoader(
      folder: folder, roots: options.plugins.moduleRoots + system, project: options.plugins.projectFolder,
      area: suite.root, path: path)
  }

  /// The current map's time (0 before the first map).
  var now: Double { bridge?.now ?? 0 }

  func run() {
    defer { finish() }
    execute()
  }

  /// Runs the script to its end and leaves its map, plugins and state alive (``run()``
  /// retires them after; a live session keeps them).
  func execute() {
    if let projectError {
      outcome.error = projectError.message
      return
    }
    let source: LuaSource
    let read = options.scriptSource.map { given -> Result<LuaSource, ScriptFileError> in
      given.bytes.count <= options.maxScriptSize
        ? .success(given) : .failure(ScriptFileError("\(path): more than \(options.maxScriptSize) bytes"))
    }
    switch read ?? ScriptFiles.readSource(path, maxSize: options.maxScriptSize) {
    case .failure(let error):
      outcome.error = error.message
      return
    case .success(let bytes): source = bytes
    }
    modules.sources[path] = source
    do {
      let state = try LuaState(memoryLimit: options.scriptMemoryLimit, libraries: PluginSandbox.libraries)
      self.state = state
      let bridge = try LuaMapBridge.install(in: state, allowsTimeControl: true, limits: options.hostLimits)
      bridge.reportError = { [weak self] _, context, error in self?.reportCallbackError(context, error) }
      bridge.snapshot = { [snapshots, recorder] map, path in
        let written = try snapshots.snapshot(map, to: path)
        if written != nil { recorder?.markPicture(of: map) }
        return written
      }
      self.bridge = bridge
      let stack = state.stack
      // The state owns these functions: they capture what the state owns or what does not
      // hold it (the bridge, the trace, the module loader), never the session.
      bridge.values = try PluginSandbox.build(
        on: stack, now: { [bridge] in bridge.now },
        log: { [bridge, trace] stack, index in
          var record = TraceRecord(time: bridge.now, event: .log)
          record.message = try bridge.loggedText(at: index, on: stack)
          trace.append(record)
        },
        modules: modules.hooks,
        seed: PluginLoader.seed(for: PluginFiles.baseName(of: path)), clock: { [weak self] in self?.clock })
      stack.pop()  // the host's linedefined helper
      pluginErrorMatcher = try ScriptLibrary.install(into: -1, on: stack, session: self, values: bridge.values!)
      try DataLibrary.install(into: -1, on: stack, folders: dataFolders)
      caseControl = try ScriptCases.install(
        into: -1, on: stack, seed: PluginLoader.seed(for: PluginFiles.baseName(of: path)), options: options)
      if isTestFile {
        assertionControl = try ScriptAssertions.install(into: -1, on: stack)
        try ScriptFileReading.install(into: -1, on: stack, read: modules.readFile)
      }
      stack.pushValue(at: -1)
      modules.adoptEnvironment(on: stack)
      if isTestFile, let helper = options.testSuite?.helper {
        guard try runHelper(helper, environmentAt: stack.top, on: stack, state: state) else { return }
      }
      let capturing = options.capturesLocals ? ScriptLocals.capturing(source) : nil
      try stack.load(capturing ?? source, chunkName: "@" + path, environmentAt: -1)
      let sink = capturing.map { _ in
        stack.newTable()
        stack.pushValue(at: -1)
        return stack.ref()
      }
      state.timeBudget = options.scriptBudget
      defer { state.timeBudget = nil }
      didStart = true
      try stack.call(arguments: sink == nil ? 0 : 1, results: 1)
      if stack.type(at: -1) == .table { returned = stack.ref() } else { stack.pop() }
      if let sink {
        stack.push(sink)
        if stack.rawGetIndex(1, ofTableAt: -1) == .table { locals = stack.ref() } else { stack.pop() }
        stack.pop()
      }
      try runCases(on: stack)
      options.afterScript?(self)
    } catch {
      outcome.error = describe(error)
    }
  }

  /// Runs busted's helper (`.busted`'s `helper`, `--helper`) in the test file's globals at
  /// `environment`, before the file, as busted runs it before the files; false, with the
  /// outcome's error, when it cannot be read. Stack: 0.
  private func runHelper(_ path: String, environmentAt environment: Int32, on stack: LuaStack, state: LuaState)
    throws -> Bool
  {
    let source: LuaSource
    switch ScriptFiles.readSource(path, maxSize: options.maxScriptSize) {
    case .failure(let error):
      outcome.error = "helper: \(error.message)"
      return false
    case .success(let bytes): source = bytes
    }
    modules.sources[path] = source
    // Named as the test files are, from the suite's root: errors say `spec/helper.lua:3: ...`.
    let root = (options.testSuite?.root ?? "") + "/"
    let name = path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    try stack.load(source, chunkName: "@" + name, environmentAt: environment)
    state.timeBudget = options.scriptBudget
    defer { state.timeBudget = nil }
    try stack.call(arguments: 0, results: 0)
    return true
  }

  /// Where `waymark.data` reads: the project's data folders, paths relative to the project;
  /// without a project, the data roots given, or else the script's own folder.
  var dataFolders: DataFolders {
    let roots = options.dataRoots.map(\.path)
    guard let project = options.project else {
      return DataFolders(base: folder, roots: roots.isEmpty ? [folder] : roots)
    }
    return DataFolders(base: project.folder.path, roots: roots)
  }

  /// The script's globals (its environment), once it runs.
  var environment: LuaRef? { modules.environment }

  /// Makes the map of `waymark.map{...}` current, retiring the previous one, and pushes its
  /// userdata. Stack: +1.
  func start(
    map: MapView, pluginFolders: [String], clock: LocalClock? = nil, settings: [String: PlainData] = [:],
    stack: LuaStack
  ) throws {
    retire()
    guard let bridge else { throw LuaFunctionError("the script's state is closed") }
    self.clock = clock ?? options.clock
    bridge.traceStart = trace.records.count
    map.settleTimeLimit = options.timeLimit
    map.taskLimit = options.taskLimit
    recorder?.begin(map, traceStart: trace.records.count)
    map.addObserver(snapshots)
    var configuration = options.plugins
    configuration.clock = self.clock
    configuration.settings = settings.merging(options.settings) { script, _ in script }
    let host = PluginHost(map: map, configuration: configuration)
    let folders = options.pluginFolders + pluginFolders
    hostFiles.formUnion(folders)  // watched too: a new plugin file there changes the run
    let problems = host.loadPlugins(from: folders)
    outcome.problems += problems.map(\.description)
    bridge.contentStore = host.contentStore
    bridge.profile = options.plugins.profile
    bridge.attach(map, on: stack)
    current = (map, host)
    bridge.pushMap(on: stack)
  }

  /// Records a failed expectation (already "file:line: message").
  func fail(_ message: String, at time: Double? = nil) {
    outcome.failures.append(message)
    var record = TraceRecord(time: time ?? now, event: .expectFailed)
    record.message = message
    if let location = LuaLocation.location(of: message) {
      record.extra.append(TraceField("file", .string(location.file)))
      record.extra.append(TraceField("line", .number(Double(location.line))))
    }
    trace.append(record)
  }

  /// An error in one of the script's own callbacks (a timer, an `on_complete`): the map goes
  /// on, and the run ends as stopped with an error.
  private func reportCallbackError(_ context: String, _ error: LuaError) {
    let message = "error in a \(context) callback: \(describe(error))"
    guard caseErrors == nil else { return caseFailed(message) }  // the running case's error
    var record = TraceRecord(time: now, event: .scriptError)
    record.message = message
    trace.append(record)
    if outcome.error == nil { outcome.error = message }
  }

  func retire() {
    guard let previous = current else { return }
    hostFiles.formUnion(previous.host.watchedFiles)
    previous.host.unloadAll()
    if previous.host.needsExactReplay { needsExactReplay = true }
    bridge?.retireMap()
    recorder?.end(traceEnd: trace.records.count)
    options.mapFinished?(previous.map)
    current = nil
  }

  func finish() {
    let end = now
    retire()
    classifyPluginErrors(endingAt: end)
    if let failure = snapshots.failure { outcome.problems.append(failure) }
    if trace.droppedCount > 0 {
      let message =
        "\(path): the trace holds \(trace.capacity) records, the most a run keeps; \(trace.droppedCount) more were dropped"
      if outcome.error == nil { outcome.error = message } else { outcome.problems.append(message) }
    }
    outcome.replay = recorder?.recording
    outcome.records = trace.records
    let project = options.project.map { [$0.file.path] } ?? Project.locate(from: path).map { [$0.path] } ?? []
    outcome.files = Array(Set(modules.sources.keys).union(hostFiles).union([path] + project)).sorted()
    state?.close()
  }

  /// One line for a Lua error: its message (which has file:line), what kind of stop it was.
  func describe(_ error: Error) -> String {
    guard let error = error as? LuaError else { return "\(error)" }
    switch error.kind {
    case .timeout:
      let budget = options.scriptBudget.map { duration in
        let (seconds, attoseconds) = duration.components
        return " of \(formatNumber(Double(seconds) + Double(attoseconds) / 1e18)) s"
      }
      let hint = bridge?.budgetStop.map { " (\($0))" } ?? " (an endless loop?)"
      return "\(Self.located(error)): the script ran past its time budget\(budget ?? "")\(hint)"
    case .memory:
      return "\(Self.located(error)): the script ran out of memory (its cap is \(options.scriptMemoryLimit >> 20) MiB)"
    default: return Self.located(error)
    }
  }

  /// The error's message, with the first Lua frame of its traceback in front when the message
  /// has no file:line of its own.
  private static func located(_ error: LuaError) -> String {
    if LuaLocation.hasLocation(error.message) { return error.message }
    if let frame = LuaLocation.firstLuaFrame(in: error.traceback) { return "\(frame): \(error.message)" }
    return error.message
  }
}
