import LuaKit
import WaymarkCore
import WaymarkScripting

/// One live map: a script runs to build it, then the map, its plugin host and the script's
/// Lua state stay alive, taking input, advancing time, evaluating Lua lines in the script's
/// environment and hot-reloading changed plugin files into the running map.
///
/// `waymark serve` and `waymark repl` are two faces of this one session; it knows nothing of
/// HTTP or terminals. Every trace record the session makes is handed out once, in order, by
/// ``takeRecords()`` (input answers take theirs), so a caller can stream them.
///
/// ```swift
/// let session = try LiveSession(script: "scripts/city_guide.lua", options: ScriptOptions())
/// let step = session.perform(.tap(Point(x: 195, y: 422)))
/// print(step.records.map(TraceJSON.line))
/// session.reloadChangedPlugins()          // an edited plugin replaces the old in the map
/// print(session.plugins.map { "\($0.name) v\($0.version)" })
/// ```
///
/// Not thread-safe: create and use a session on one thread (Lua states and the map are
/// confined to the thread that made them).
public final class LiveSession {
  /// The script the session ran.
  public let script: String
  /// What running the script to its end produced: failed expectations, plugin problems,
  /// and the error that stopped it, if any (the map stays as the script left it).
  public let startup: ScriptOutcome
  let session: ScriptSession
  var tracker = LivePluginTracker()
  /// The environment and `show` function of ``evaluate(_:)``, made at its first use.
  var replEnvironment: LuaRef?
  var evaluationShow: LuaRef?
  private var isClosed = false
  /// The inputs made, kept to be written as a test file (`waymark serve --record`); nil when
  /// none are kept.
  public var recording: LiveRecording?

  /// Runs `script` to its end and keeps what it built alive.
  ///
  /// Throws when the script could not be started at all (unreadable, a syntax error); a
  /// script that stops with an error later still gives a session, with ``startup``'s
  /// `error` set.
  public init(script: String, options: ScriptOptions) throws(LiveSessionError) {
    self.script = script
    var options = options
    options.capturesLocals = true
    session = ScriptSession(path: script, options: options)
    session.execute()
    var startup = session.outcome
    guard session.didStart, session.state != nil else {
      session.finish()
      throw LiveSessionError(message: startup.error ?? "\(script): the script could not be started")
    }
    startup.files = []
    self.startup = startup
    session.outcome = ScriptOutcome()
    tracker.refresh(host)
  }

  deinit { close() }

  /// The map the script drives now (nil if it made none).
  public var map: MapView? { session.current?.map }

  /// The plugin host of the current map.
  public var host: PluginHost? { session.current?.host }

  /// The plugins of the current map, each with the version that answers now and the error
  /// of an edit that failed to load.
  public var plugins: [LivePlugin] { tracker.plugins(of: host) }

  /// Hands out every record made since the last call, in order, and forgets them (a live
  /// map runs for hours: the trace must not grow without bound).
  public func takeRecords() -> [TraceRecord] {
    let records = session.trace.records
    session.trace.removeAll()
    session.bridge?.traceStart = 0  // map:trace() from a line: the records since the last take
    recording?.observe(records)
    tracker.refresh(host)  // a script line may have made a new map with its own plugins
    return records
  }

  /// Applies one input to the map and returns the records it made (every record since the
  /// last ``takeRecords()``), or why the map refused it.
  public func perform(_ input: LiveInput) -> LiveStep {
    var step = LiveStep()
    if let map {
      let time = map.clock.now
      let line = recording == nil ? nil : LiveRecording.line(for: input, on: map)
      do {
        try input.apply(to: map, interruption: wallClockLimit())
        if let line { recording?.add(line, at: time) }
      } catch {
        step.error = error.luaDescription  // the input kinds are spelt as the Lua API's names
      }
    } else {
      step.error = "the script made no map (call waymark.map{...})"
    }
    step.records = takeRecords()
    return step
  }

  /// Writes the recorded test file (``recording``), ending at the map's time now; call it
  /// after ``takeRecords()``, so that its last record is the map's last.
  public func writeRecording() throws(TextFile.WriteError) {
    try recording?.write(endingAt: map?.clock.now ?? 0)
  }

  /// Advances the current map's virtual time by `seconds` (a live clock's tick).
  public func advance(by seconds: Double) throws(MapError) {
    try map?.advance(by: seconds, interruption: wallClockLimit())
  }

  /// Stops one step of virtual time once it has run for the script's budget of wall-clock
  /// time (`--script-budget`): outside a Lua line no Lua budget covers the map's frames and
  /// the plugins' timers, and a live map must go on answering.
  private func wallClockLimit() -> (() -> String?)? {
    guard let budget = session.options.scriptBudget else { return nil }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: budget)
    return { clock.now < deadline ? nil : "it ran for the script budget of wall-clock time (\(budget))" }
  }

  /// Hot reload between two events: every plugin whose file (or a module it requires)
  /// changed is reloaded into the running map (`teardown`, `save_state` on the old version;
  /// `setup`, `on_reload(old_state)` on the new); new files of the plugin folders load,
  /// deleted ones unload. A version that fails to load leaves the old one answering; the
  /// error is traced and shown by ``plugins``. Returns this reload's diagnostics.
  @discardableResult
  public func reloadChangedPlugins() -> [PluginDiagnostic] {
    guard let host else { return [] }
    let found = host.reloadChangedPlugins()
    tracker.note(found, host: host)
    tracker.refresh(host)
    return found
  }

  /// Reloads every plugin now, changed or not (`:reload`), the same way as a changed one.
  @discardableResult
  public func reloadAllPlugins() -> [PluginDiagnostic] {
    guard let host else { return [] }
    var found: [PluginDiagnostic] = []
    for instance in host.instances { found += host.reload(instance) }
    host.diagnostics += found
    tracker.note(found, host: host)
    tracker.refresh(host)
    return found
  }

  /// Retires the map (its plugins' `teardown` runs) and closes the script's state. Idempotent.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    replEnvironment = nil
    evaluationShow = nil
    session.finish()
  }
}

/// What one input did: the records it made and, if the map refused it, why.
public struct LiveStep: Sendable {
  /// The records made since the previous take, the input's own among them.
  public var records: [TraceRecord] = []
  /// Why the map refused the input (a message naming the field and value); nil if it ran.
  public var error: String?
  /// An empty step.
  public init() {}
}

/// A live session that could not start: the script is unreadable or has a syntax error.
public struct LiveSessionError: Error, CustomStringConvertible, Sendable {
  /// One line with file:line.
  public let message: String
  /// The message.
  public var description: String { message }
}
