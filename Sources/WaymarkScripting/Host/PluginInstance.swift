import LuaKit
import WaymarkCore

/// One loaded version of one plugin file: its own Lua state, bridge, handlers and sources.
/// A reload makes a new instance; the old one is torn down and dropped, closing its state.
package final class PluginInstance {
  /// The plugin file, as the host was given it.
  package let file: String
  /// The folder its modules are required from.
  let folder: String
  /// The plugin's own state; it owns ``bridge``.
  let state: LuaState
  let bridge: LuaMapBridge
  /// The map userdata, the first argument of every handler.
  let mapRef: LuaRef
  let modules: ModuleLoader
  /// `name` field, else the file name without `.lua`.
  var name: String
  /// `priority` field, else 0.
  var priority: Double = 0
  /// Handlers by ``DelegateCallback`` (its raw value, the order of the callback table).
  private(set) var handlers: [LuaRef?] = Array(repeating: nil, count: DelegateCallback.allCases.count)
  /// The same handlers prepared in C, with the map as first argument and the marker
  /// userdata of recent events: the hot path of a handler called as `handler(map, marker)`.
  /// Closed when the plugin is disabled or closed, so it answers "no handler" from then on.
  let dispatch: LuaDispatchTable
  /// The line where each handler is defined, by callback (0 when unknown).
  var handlerLines: [Int] = Array(repeating: 0, count: DelegateCallback.allCases.count)
  var setup: LuaRef?
  var teardown: LuaRef?
  var onReload: LuaRef?
  var saveState: LuaRef?
  /// The table the file returned.
  var table: LuaRef!
  /// Failures since the last success (docs/plugins.md: after `maxConsecutiveFailures` the
  /// plugin is disabled). Kept in ``dispatch``, where the host's veto loop in C resets it.
  var consecutiveFailures: Int {
    get { dispatch.consecutiveFailures }
    set { dispatch.consecutiveFailures = newValue }
  }
  /// Every failure so far: a call that returns normally after a failure inside it (a nested
  /// call) is not a success that resets ``consecutiveFailures``. Kept in ``dispatch`` too.
  var failureCount: Int {
    get { dispatch.failures }
    set { dispatch.failures = newValue }
  }
  /// Where closing tells the host that this state's instruction budget asks for an exact
  /// replay (``PluginHost/needsExactReplay``).
  var replays: ExactReplayFlag?
  /// Whether it was disabled after repeated failures; its timers and callbacks stop too.
  var isDisabled = false {
    didSet {
      bridge.isActive = !isDisabled
      if isDisabled { dispatch.close() }
    }
  }

  init(
    file: String, folder: String, state: LuaState, bridge: LuaMapBridge, mapRef: LuaRef, modules: ModuleLoader,
    name: String
  ) {
    self.file = file
    self.folder = folder
    self.state = state
    self.bridge = bridge
    self.mapRef = mapRef
    self.modules = modules
    self.name = name
    dispatch = LuaDispatchTable(state: state, slots: DelegateCallback.allCases.count, firstArgument: mapRef)
  }

  /// Makes `handler`, defined at `line`, the handler of `callback` (when loading).
  func setHandler(_ handler: LuaRef, line: Int, for callback: DelegateCallback) {
    handlers[callback.rawValue] = handler
    handlerLines[callback.rawValue] = line
    dispatch.setHandler(handler, at: callback.rawValue)
  }

  /// The handler for a callback, if any and the plugin is enabled.
  @inline(__always)
  func handler(_ callback: DelegateCallback) -> LuaRef? {
    isDisabled || state.isClosed ? nil : handlers[callback.rawValue]
  }

  /// The line of the `return` in the handler of `callback` that most probably gave a value of
  /// Lua type `type` (read from the source, ``PluginLint/returnLine(of:inFunctionAt:source:file:)``),
  /// else the line where the handler is defined.
  func returnLine(_ callback: DelegateCallback, _ type: String) -> Int {
    let defined = handlerLines[callback.rawValue]
    guard let source = sources[file] else { return defined }
    return PluginLint.returnLine(of: type, inFunctionAt: defined, source: source, file: file) ?? defined
  }

  /// Every file this version was built from (the plugin and its modules) with the bytes read.
  package var sources: [String: LuaSource] { modules.sources }

  deinit { close() }

  /// Stops the plugin's timers and closes its state now (which releases the bridge).
  /// Idempotent.
  func close() {
    dispatch.close()
    bridge.retireMap()
    if !state.isClosed, state.needsExactReplay { replays?.isNeeded = true }
    state.close()
  }
}
