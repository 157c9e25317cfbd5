import Foundation
import LuaKit
import WaymarkCore

/// Lua plugins as the map's delegate: loads every `*.lua` file of plugin folders, each in
/// its own sandboxed state, and composes their answers as docs/plugins.md says (veto: the first
/// `true` wins; content: the first non-nil wins; notifications: every plugin).
///
/// ```swift
/// let map = try MapView(camera: CameraPosition(target: melbourne, zoom: 4))
/// let host = PluginHost(map: map)           // becomes map.delegate (held weakly: keep host)
/// let problems = host.loadPlugins(from: ["plugins"])
/// try map.tap(.marker(marker))              // handlers run; errors go to map.trace
/// host.reloadChangedPlugins()               // between events: hot reload
/// ```
///
/// Beside a Swift delegate: `PluginHost(map: map, beside: myDelegate, asked: .afterPlugins)`
/// keeps `myDelegate` as one more answerer, asked before or after the plugins with the same
/// composition across both (a veto `true` or a content answer from the first stops the
/// second; notifications reach both). The trace names it as `delegateName` when it decides.
///
/// A plugin can never stop the map: any error, timeout, memory-cap hit or wrongly typed
/// answer is a `plugin_error` trace record (plugin, `handler`, message with file:line) and
/// counts as nil. A plugin failing ``Configuration/maxConsecutiveFailures`` calls in a row is
/// disabled until its file changes and it is reloaded. Not thread-safe: use the map's thread.
public final class PluginHost: DelegateEventHandler {
  /// Budgets and limits of every plugin.
  public struct Configuration: Sendable {
    /// Wall-clock budget of each handler call (default 50 ms); nil for none (benchmarks).
    /// With an ``instructionBudget`` it is only the safety net against what instructions do
    /// not measure (a long call into C), and should be generous.
    public var timeBudget: Duration? = .milliseconds(50)
    /// The budget of each handler call in Lua VM instructions (nil: none, the default): a
    /// verdict that is the same on every machine, however loaded (`waymark test` uses it).
    public var instructionBudget: Int?
    /// How instructions are counted: ``LuaInstructionCounting/fast`` (free; a run in which
    /// a call lasted long enough to need counting reports ``PluginHost/needsExactReplay``,
    /// and `ScriptRunner` replays it exactly) or ``LuaInstructionCounting/exact``.
    package var instructionCounting = LuaInstructionCounting.fast
    /// Where handler calls are timed (`waymark test --profile`); nil, the default: not timed.
    public var profile: PluginProfile?
    /// Memory cap of each plugin's state in bytes (default 64 MiB).
    public var memoryLimit: Int = 64 << 20
    /// Failed calls in a row after which a plugin is disabled (default 5).
    public var maxConsecutiveFailures = 5
    /// What each plugin's code may make the host keep (log text, shared data, objects).
    public var hostLimits = HostLimits.plugin
    /// Folders `require` searches after the requiring file's own, in order (the project's
    /// `modules`, `--modules DIR`); a system tree such as `/usr/share/lua/5.4` may be one.
    public var moduleRoots: [URL] = []
    /// The project's folder, if there is one: no module file inside it may lead out of it
    /// through a symbolic link (without one, the plugin's or script's folder).
    public var projectFolder: URL?
    /// The local clock of `os.time` and `os.date` (nil: UTC, from 2025-01-01T00:00:00Z).
    public var clock: LocalClock?
    /// Settings by plugin name: `setup(map, settings)` receives a copy of its own (nil if none),
    /// and so does each version hot reload brings in.
    public var settings: [String: PlainData] = [:]
    /// Creates the default configuration.
    public init() {}
  }

  /// What the host knows about a loaded plugin.
  public struct PluginInfo: Sendable, Hashable {
    /// The `name` field, else the file name without `.lua`.
    public var name: String
    /// The plugin file.
    public var file: String
    /// Higher is asked first.
    public var priority: Double
    /// The handler names it defines, in section 1 order.
    public var handlers: [String]
    /// Whether it was disabled after repeated failures.
    public var isDisabled: Bool
  }

  /// The map whose delegate this host is.
  public let map: MapView
  /// Budgets and limits.
  public let configuration: Configuration
  /// Every diagnostic of every load and reload so far, in order.
  public package(set) var diagnostics: [PluginDiagnostic] = []

  /// Loaded plugins in the order they are asked.
  package var instances: [PluginInstance] = [] {
    didSet { order.set(instances.map { ($0.dispatch, $0) }) }
  }
  /// The plugins' prepared tables in the same order, with the nesting depth of their calls:
  /// a veto whose sole argument is a marker runs in one C call (``LuaDispatchOrder``).
  let order = LuaDispatchOrder(maxDepth: PluginHost.maxNesting)
  /// Folders watched for new and deleted files.
  var folders: [String] = []
  /// Files that failed to load, each with every file that load read (the plugin and the
  /// modules it required) and the bytes read, nil for one missing: retried once any changes.
  package var failedFiles: [String: [String: LuaSource?]] = [:]
  /// Loaded plugins whose last reload failed, with what that reload read the same way:
  /// reloaded again once any changes (a module only the new version requires, fixed).
  var failedReloads: [String: [String: LuaSource?]] = [:]
  /// The Lua values of the window content plugins answered last, which
  /// `map.info_window.content` hands back (shared by every plugin of the host).
  package let contentStore = ContentStore()
  /// The live view of the content table a plugin answered last (R34), with that content.
  var answeredView: (content: InfoWindowContent, view: LiveView<InfoWindowContent>)?
  /// Set when a plugin's state, counting instructions fast, saw a call it could not judge.
  let replays = ExactReplayFlag()

  /// Whether a handler call of this host lasted long enough, with fast instruction counting,
  /// that it may have passed the instruction budget: the run must be replayed with
  /// `LuaInstructionCounting/exact` counting for its verdicts (`ScriptRunner` does).
  public var needsExactReplay: Bool {
    replays.isNeeded || instances.contains { !$0.state.isClosed && $0.state.needsExactReplay }
  }
  /// How deep the host is in a handler call (reloads wait for 0): the depth ``order`` keeps
  /// in C, where its veto loop counts its own calls.
  var dispatchDepth: Int {
    get { order.depth }
    set { order.depth = newValue }
  }

  /// Where a Swift delegate beside the plugins is asked.
  public enum DelegatePlacement: Sendable {
    /// Before every plugin: its veto or content stops the plugins from being asked.
    case beforePlugins
    /// After every plugin: asked only when no plugin decided a veto or content callback.
    case afterPlugins
  }

  /// A Swift delegate asked beside the plugins; weak, as the map holds its delegate.
  public private(set) weak var delegate: DelegateEventHandler?
  /// Where ``delegate`` is asked.
  public let placement: DelegatePlacement
  /// The name the trace gives ``delegate`` when its answer decides (`plugin` field).
  public let delegateName: String
  /// Whether a delegate was given: without one, dispatch never loads the weak reference.
  let hasDelegate: Bool
  /// Whether handler calls are timed (``Configuration/profile``), read once.
  let isProfiling: Bool

  /// Creates a host and makes it the map's delegate (the map holds it weakly). With
  /// `delegate`, the map's callbacks reach that delegate too, as one more answerer asked
  /// before or after the plugins (`placement`), named `delegateName` in the trace.
  public init(
    map: MapView, configuration: Configuration = Configuration(), beside delegate: DelegateEventHandler? = nil,
    asked placement: DelegatePlacement = .afterPlugins, delegateName: String = "delegate"
  ) {
    self.map = map
    self.configuration = configuration
    self.delegate = delegate
    self.placement = placement
    self.delegateName = delegateName
    hasDelegate = delegate != nil
    isProfiling = configuration.profile != nil
    map.delegate = self
  }

  deinit {
    for instance in instances { instance.close() }
  }

  /// The loaded plugins, in the order they are asked.
  public var plugins: [PluginInfo] {
    instances.map { instance in
      PluginInfo(
        name: instance.name, file: instance.file, priority: instance.priority,
        handlers: DelegateCallback.allCases.filter { instance.handlers[$0.rawValue] != nil }.map(\.name),
        isDisabled: instance.isDisabled)
    }
  }

  /// The Lua state of a loaded plugin, for tools and benchmarks (memory use, a raw
  /// `lua_pcall` floor). The plugin's table is the state's global `__waymark_plugin` (the
  /// plugin's own globals are a separate table it cannot leave).
  package func luaState(ofPlugin name: String) -> LuaState? {
    instances.first { $0.name == name }?.state
  }

  // MARK: Loading

  /// Loads every plugin file of each folder (sorted by name; a `.lua` file given instead of
  /// a folder is loaded alone), then runs `setup(map)` of the new plugins in priority order.
  /// Returns this load's diagnostics; the folders are watched by ``reloadChangedPlugins()``.
  @discardableResult
  public func loadPlugins(from folders: [String]) -> [PluginDiagnostic] {
    var files: [String] = []
    var found: [PluginDiagnostic] = []
    for folder in folders {
      if folder.hasSuffix(".lua"), FileManager.default.fileExists(atPath: folder), !PluginFiles.isDirectory(folder) {
        files.append(folder)
        continue
      }
      guard PluginFiles.isDirectory(folder) else {
        found.append(
          PluginDiagnostic(severity: .error, file: folder, line: nil, message: "no such plugin folder or .lua file"))
        continue
      }
      if !self.folders.contains(folder) { self.folders.append(folder) }
      let plugins = PluginFiles.pluginFiles(in: folder)
      if plugins.isEmpty, let hint = PluginFiles.pluginFoldersHint(in: folder) {
        let warning = PluginDiagnostic(severity: .warning, file: folder, line: nil, message: hint)
        report([warning])  // in the trace, as a file's warnings are: `waymark run` prints them
        found.append(warning)
      }
      files += plugins
    }
    diagnostics += found
    return found + loadPlugins(files: files)
  }

  /// Loads plugin files (not watched for siblings), then runs their `setup(map)`.
  @discardableResult
  public func loadPlugins(files: [String]) -> [PluginDiagnostic] {
    var found: [PluginDiagnostic] = []
    var added: [PluginInstance] = []
    for file in files where !instances.contains(where: { $0.file == file }) {
      let (instance, problems, read) = loader.load(file: file)
      found += problems
      report(problems)
      if let instance {
        failedFiles[file] = nil
        added.append(instance)
        insert(instance)
        record(.pluginLoaded, instance)
      } else {
        failedFiles[file] = read
      }
    }
    for instance in instances where added.contains(where: { $0 === instance }) {
      setUp(instance)
    }
    diagnostics += found
    return found
  }

  /// Runs `setup(map)` of a plugin just loaded; if it fails, the load failed: the plugin
  /// leaves the asking order (a `plugin_unloaded` record follows the `plugin_error` of
  /// `setup`) and is retried when its file changes. Returns whether it is set up.
  @discardableResult
  func setUp(_ instance: PluginInstance) -> Bool {
    let settings = configuration.settings[instance.name]
    let passed = callLifecycle(
      instance, "setup", instance.setup,
      afterMap: { stack in
        guard let settings else { return 0 }
        settings.push(on: stack)
        return 1
      })
    guard !passed else { return true }
    instances.removeAll { $0 === instance }
    record(.pluginUnloaded, instance)
    failedFiles[instance.file] = instance.modules.filesRead
    instance.close()
    return false
  }

  /// Loads the files of `paths` (files or folders) in a scratch map without running setup or
  /// any handler, and returns every diagnostic (what `waymark check` prints).
  public static func check(_ paths: [String], configuration: Configuration = Configuration()) -> [PluginDiagnostic] {
    guard let map = try? MapView(camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 2)) else {
      return []
    }
    let host = PluginHost(map: map, configuration: configuration)
    var found: [PluginDiagnostic] = []
    for path in paths {
      let files = PluginFiles.isDirectory(path) ? PluginFiles.pluginFiles(in: path) : [path]
      for file in files { found += host.loader.load(file: file).diagnostics }
    }
    return found
  }

  /// Runs `teardown(map)` of every plugin and unloads them all.
  public func unloadAll() {
    // Each plugin leaves the asking order before its teardown runs: a teardown that moves
    // the map must not call into a plugin already closed.
    while !instances.isEmpty { unload(instances.removeFirst()) }
  }

  var loader: PluginLoader {
    PluginLoader(map: map, configuration: configuration, contentStore: contentStore, replays: replays) {
      [weak self] bridge, context, error in
      guard let self, let instance = instances.first(where: { $0.bridge === bridge }) else { return }
      fail(instance, handler: context, error: error)
    }
  }

  /// Inserts in asking order: priority (higher first), then file name, then path.
  func insert(_ instance: PluginInstance) {
    let index = instances.firstIndex { Self.asksBefore(instance, $0) } ?? instances.endIndex
    instances.insert(instance, at: index)
  }

  static func asksBefore(_ a: PluginInstance, _ b: PluginInstance) -> Bool {
    if a.priority != b.priority { return a.priority > b.priority }
    let nameA = PluginFiles.baseName(of: a.file), nameB = PluginFiles.baseName(of: b.file)
    if nameA != nameB { return Array(nameA.utf8).lexicographicallyPrecedes(nameB.utf8) }
    return Array(a.file.utf8).lexicographicallyPrecedes(b.file.utf8)
  }

  func unload(_ instance: PluginInstance) {
    callLifecycle(instance, "teardown", instance.teardown)
    instance.close()
  }

  // MARK: Lifecycle calls and failures

  /// Calls `setup`/`teardown` with the map (after what `extra` pushes, before what `afterMap`
  /// pushes), refusing input as during a callback; errors are
  /// reported like handler errors. Returns false if the call failed.
  @discardableResult
  func callLifecycle(
    _ instance: PluginInstance, _ name: String, _ function: LuaRef?, extra: ((LuaStack) -> Int32)? = nil,
    afterMap: ((LuaStack) -> Int32)? = nil
  ) -> Bool {
    guard let function, !instance.isDisabled else { return true }
    guard admitNested(instance, name, line: 0) else { return false }
    let stack = instance.state.stack
    let base = stack.top
    defer { stack.setTop(base) }
    stack.push(function)
    var count: Int32 = 0
    if let extra { count = extra(stack) }
    instance.bridge.pushMap(on: stack)
    if let afterMap { count += afterMap(stack) }
    let failures = instance.failureCount
    dispatchDepth += 1
    defer { dispatchDepth -= 1 }
    do {
      try map.refusingInput(during: name) { () throws(LuaError) in try stack.call(arguments: count + 1, results: 0) }
      guard instance.failureCount == failures else { return false }
      instance.consecutiveFailures = 0
      return true
    } catch {
      fail(instance, handler: name, error: error)
      return false
    }
  }

  /// How deep plugin calls may nest (a handler changing the map calls handlers, which may
  /// change it again): deeper is a feedback loop, refused as a failure of the plugin so that
  /// the five-failures rule ends it, long before Lua's or the thread's stack would.
  static let maxNesting = 16

  /// Whether a call of `instance` may start at the current depth; otherwise reports it.
  func admitNested(_ instance: PluginInstance, _ name: String, line: Int) -> Bool {
    guard dispatchDepth >= Self.maxNesting else { return true }
    fail(
      instance, handler: name,
      message:
        "\(instance.file):\(line): \(name) refused: plugin calls are nested \(Self.maxNesting) deep (a feedback loop? each handler's change to the map calls handlers again)"
    )
    return false
  }

  /// Reports a Lua error of a plugin (a `plugin_error` record) and counts the failure.
  func fail(_ instance: PluginInstance, handler: String, error: LuaError, line: Int = 0) {
    var message = error.message
    if !LuaLocation.hasLocation(message) {
      let frame = LuaLocation.firstLuaFrame(in: error.traceback) ?? "\(instance.file):\(line)"
      message = "\(frame): \(message)"
    }
    if case .memory = error.kind { message += " (memory cap of \(configuration.memoryLimit >> 20) MiB)" }
    message += LuaLocation.moduleTraceback(of: message, traceback: error.traceback, file: instance.file)
    fail(instance, handler: handler, message: message)
  }

  /// Reports a failure with a ready message (which carries file:line).
  func fail(_ instance: PluginInstance, handler: String, message: String) {
    record(.pluginError, instance, message: message, handler: handler)
    instance.failureCount += 1
    instance.consecutiveFailures += 1
    let limit = configuration.maxConsecutiveFailures
    if !instance.isDisabled, limit > 0, instance.consecutiveFailures >= limit {
      instance.isDisabled = true
      record(
        .pluginError, instance,
        message:
          "\(instance.file): \(instance.name) disabled after \(limit) consecutive errors; it stays off until its file changes and it is reloaded",
        handler: handler)
    }
  }

  /// Appends a plugin record to the trace.
  func record(_ event: TraceEvent, _ instance: PluginInstance, message: String? = nil, handler: String? = nil) {
    var record = TraceRecord(time: map.clock.now, event: event)
    record.answerer = .string(instance.name)
    record.message = message
    if let handler { record.extra.append(TraceField("handler", .string(handler))) }
    // A plugin_error's file and line are where it happened (a module's, for an error there).
    let location = event == .pluginError ? message.flatMap(LuaLocation.location(of:)) : nil
    let file = location.map { LuaLocation.names($0.file, instance.file) ? instance.file : $0.file }
    record.extra.append(TraceField("file", .string(file ?? instance.file)))
    if let location { record.extra.append(TraceField("line", .number(Double(location.line)))) }
    map.trace.append(record)
  }

  /// Adds load diagnostics to the trace: errors as `plugin_error`, warnings as `warning`.
  func report(_ problems: [PluginDiagnostic]) {
    for problem in problems {
      var record = TraceRecord(time: map.clock.now, event: problem.severity == .error ? .pluginError : .warning)
      record.answerer = .string(PluginFiles.baseName(of: problem.file))
      record.message = problem.description
      record.extra.append(TraceField("handler", .string("load")))
      record.extra.append(TraceField("file", .string(problem.file)))
      if let line = problem.line { record.extra.append(TraceField("line", .number(Double(line)))) }
      map.trace.append(record)
    }
  }
}

/// Whether any state of a host asked for an exact replay of the run (shared by the host,
/// its loader and its instances, which report it when they close).
final class ExactReplayFlag {
  var isNeeded = false
}
