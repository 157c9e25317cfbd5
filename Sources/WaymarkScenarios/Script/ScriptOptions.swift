import Foundation
import WaymarkCore
import WaymarkRender
import WaymarkScripting

/// How `ScriptRunner` runs a scripted demo.
public struct ScriptOptions: Sendable {
  /// Plugin folders (or single `.lua` plugin files) loaded into every map the script makes,
  /// before the script's own `plugins` (the command line's `--plugins`).
  public var pluginFolders: [String] = []
  /// The project the script belongs to (the nearest `waymark.lua` above it), once found:
  /// ``adopt(_:)`` took its defaults. nil: none, or not looked for yet.
  public var project: Project?
  /// Whether a run looks for the script's project when ``project`` is nil (the default), and
  /// adopts it; false: the script runs with these options alone.
  public var findsProject = true
  /// Roots `require` searches after the requiring file's own folder, in order, in the script
  /// and its plugins (the project's `modules`, resolved; when empty, `plugins.moduleRoots`).
  public var moduleRoots: [URL] = []
  /// The folders scripts may read data from (the project's `data`, resolved).
  public var dataRoots: [URL] = []
  /// Settings by plugin name: `setup(map, settings)` receives a copy of its own (the
  /// project's `settings`; a script's `waymark.map{ settings = }` wins for its map).
  public var settings: [String: PlainData] = [:]
  /// The local clock of the script's maps (the project's `clock`; a script's
  /// `waymark.map{ clock = }` wins for its map); nil: `os.time()` starts at 2025-01-01T00:00Z.
  public var clock: LocalClock?
  /// A policy preset name that overrides the script's `policy` (`--policy`).
  public var policy: String?
  /// Seconds of virtual time `map:settle()` waits at most before it fails (`--time-limit`).
  public var timeLimit = 600.0
  /// The most frames and timers one `map:advance` or `map:settle` runs before it fails
  /// (`MapView/taskLimit`).
  public var taskLimit = 100_000
  /// The most trace records a run keeps (`TraceLog/capacity`): past it they are dropped,
  /// `advance` and `settle` stop, and the run ends with an error that says so.
  public var traceCapacity = 250_000
  /// Wall-clock budget of the whole script's own Lua code, so a runaway loop in a script is
  /// stopped; nil for none.
  public var scriptBudget: Duration? = .seconds(20)
  /// Memory cap of the script's Lua state, in bytes.
  public var scriptMemoryLimit = 256 << 20
  /// What the script's own code may make the host keep (log text, shared data, objects).
  public var hostLimits = HostLimits.script
  /// Budgets and limits of the plugins.
  public var plugins = PluginHost.Configuration()
  /// The largest script file accepted, in bytes.
  public var maxScriptSize = 4 << 20
  /// The script's bytes when they do not come from a file (`waymark run -` reads standard
  /// input): the path then only names it in messages, and plugin folders are relative to
  /// the path's folder.
  public var scriptSource: LuaSource?
  /// Where the run writes an SVG at every idle camera and every `map:snapshot()` without a
  /// path (`--snapshots`); nil: those are not written. The folder must exist.
  public var snapshotFolder: String?
  /// The most bytes of pictures a run writes (`map:snapshot` and `--snapshots` together, as
  /// logs are capped by `HostLimits/logBytes`): a picture that would pass it is not written,
  /// and `map:snapshot` raises.
  public var snapshotBytes = 256 << 20
  /// Whether the run records what its maps show for the HTML replay (`--html`), in
  /// ``ScriptOutcome/replay``.
  public var recordsReplay = false
  /// Called with each map when the run is done with it (a later `waymark.map{}` replaced
  /// it, or the script ended), after its plugins' teardown: to inspect, draw or keep its
  /// final state.
  public var mapFinished: (@Sendable (MapView) -> Void)?
  /// Called when the script's own code has run to its end, with the session still open
  /// (its map current, its state alive): `waymark fuzz` drives the map from here.
  var afterScript: (@Sendable (ScriptSession) -> Void)?
  /// Whether the script's top-level locals are captured when its main chunk ends
  /// (``ScriptLocals``), for a live session to reach them.
  var capturesLocals = false
  /// Lua patterns: only the test file's cases whose full name contains a match of one of
  /// them run (`waymark test --filter`); empty: every case.
  package var caseFilters: [String] = []
  /// busted's tags (`--tags`): when any, only the cases whose full name holds `#tag` for one
  /// of them run.
  package var caseTags: [String] = []
  /// busted's excluded tags (`--exclude-tags`): a block or case whose name holds `#tag` for
  /// one of them does not run (a describe's body neither).
  package var excludedCaseTags: [String] = []
  /// Where `require` in a test file looks as busted run from the suite's root does
  /// (`waymark test`): the root (absolute) and its `lpath` templates, absolute, searched after
  /// the requiring file's folder and before the module roots; the root's `?.lua` and
  /// `?/init.lua` come after the roots. `helper` (absolute): busted's helper, run in each
  /// test file's globals before the file. Nil: a test file finds what a script finds, and
  /// luassert.
  package var testSuite: (root: String, lpath: [String], helper: String?)?
  /// Whether the test file's cases are only listed, never run (`waymark test --list`).
  package var listsCases = false
  /// Whether every block runs its blocks and cases in a shuffled order (`--shuffle`), as
  /// busted's `randomize()` in each; a block's own `randomize(false)` still keeps its order.
  package var shufflesCases = false
  /// The seed of the shuffles (`--seed`); nil: each file's own.
  package var shuffleSeed: Int?
  /// Whether no case runs after the first that failed (`waymark test --fail-fast`).
  package var stopsAtFirstFailedCase = false

  /// The defaults.
  public init() {}

  /// Takes the project's defaults where these options (the command line's flags) say
  /// nothing: flags win. Plugin folders, module roots and data roots are taken whole when
  /// none is given; settings plugin by plugin; the clock when none is set.
  public mutating func adopt(_ project: Project) {
    self.project = project
    if pluginFolders.isEmpty { pluginFolders = project.pluginFolders.map(\.path) }
    if moduleRoots.isEmpty { moduleRoots = project.moduleRoots }
    if dataRoots.isEmpty { dataRoots = project.dataRoots }
    settings.merge(project.settings) { given, _ in given }
    if clock == nil { clock = project.clock }
  }

  /// These options with the project of the script at `path` adopted, when ``findsProject``
  /// and no ``project`` is set yet (`Project.find(from:)`); the same options when there
  /// is none. Throws what is wrong with the project file found.
  public func resolvingProject(for path: String) throws(ProjectError) -> ScriptOptions {
    guard findsProject, project == nil, let found = try Project.find(from: path) else { return self }
    var options = self
    options.adopt(found)
    return options
  }
}

/// What a script run produced.
public struct ScriptOutcome: Sendable {
  /// The trace of every map the script made, in order.
  public var records: [TraceRecord] = []
  /// Failed expectations, each "file:line: message".
  public var failures: [String] = []
  /// Plugin load problems and warnings, each "file:line: severity: message".
  public var problems: [String] = []
  /// Every `plugin_error` and `warning` record (load problems, handler errors, timeouts),
  /// in order, each marked when the script expected it (`expect_plugin_error`).
  public var pluginProblems: [PluginProblem] = []
  /// Why the script could not be loaded or stopped, "file:line: message"; nil if it ran to
  /// its end.
  public var error: String?
  /// Whether this is the outcome of an exact replay: with fast instruction counting, a
  /// handler call lasted long enough that it may have passed its budget, so the run was
  /// made again counting every instruction.
  public var wasReplayedExactly = false
  /// The files the run read (the script, its modules, plugins and their modules) and the
  /// plugin folders it loaded, for `--watch`.
  public var files: [String] = []
  /// What the run's maps showed over time, when ``ScriptOptions/recordsReplay`` asked for it:
  /// give it to `ReplayPage.html` with ``records``.
  public var replay: ReplayRecording?
  /// The cases of a test file (`it`, `pending`) that the filters kept, in order; empty for a
  /// script that declares none.
  public var cases: [ScriptCase] = []
  /// Whether the script declares cases (``cases`` is empty when the filters kept none).
  public var declaresCases = false

  /// Creates an empty outcome.
  public init() {}
}
