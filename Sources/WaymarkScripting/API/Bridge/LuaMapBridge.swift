import LuaKit
import WaymarkCore

/// The Lua face of maps inside one Lua state: metatables built from ``LuaAPI``, the map
/// userdata, the identity caches of markers and overlays, per-state `user_data`, timers.
///
/// Lifetimes by construction: one bridge per state, owned by the state (its
/// ``LuaState/attachment``), so it lives exactly as long as the state. The functions and
/// metamethods installed in the state capture it strongly (the state owns them too, and the
/// bridge never holds the state); what the map keeps of Lua (timers, `on_complete`
/// callbacks) holds only a ``LuaRef`` and finds the bridge through it, so once the state has
/// closed such a callback does nothing. A script's state drives one map at a time: when
/// ``attach(_:on:)`` makes a new map current, every handle of the previous one raises "this
/// map was replaced by a later waymark.map{}" instead of driving it.
package final class LuaMapBridge {
  /// The userdata types. `getmetatable` on them returns false (LuaKit).
  package static let mapType = LuaObjectType<MapView>("waymark.Map")
  static let markerType = LuaObjectType<Marker>("waymark.Marker")
  static let overlayType = LuaObjectType<Overlay>("waymark.Overlay")
  static let timerType = LuaObjectType<LuaTimer>("waymark.Timer")
  static let projectionType = LuaObjectType<LuaProjection>("waymark.Projection")
  static let clustersType = LuaObjectType<ClusterManager>("waymark.Clusters")

  /// The marker properties read from a per-object cache: the hot fields of a handler. A
  /// marker's cache lives while its version holds (``Marker/version``), so every change of
  /// the marker (script, plugin, animation, drag) is seen on the next read.
  static let cachedMarkerFields = ["id", "title", "snippet", "position", "user_data"]
  /// Cached properties whose getters build a new table each read: handed out as copies.
  static let copiedFields: Set<String> = ["position"]
  /// How the field cache reads a marker's version (``Marker/version``): every read of a
  /// cached field calls it.
  static let markerVersion: LuaVersionReader = {
    Unmanaged<Marker>.fromOpaque(UnsafeRawPointer($0!))._withUnsafeGuaranteedRef { $0.version }
  }

  /// The message of a handle of a map that is no longer current.
  static let replacedMapMessage = "this map was replaced by a later waymark.map{}; a script drives one map at a time"
  /// The message a handle of a map that is no longer current raises: ``replacedMapMessage``,
  /// or, once a test file's cases run, one that says each case makes its own map.
  package var staleMapMessage = LuaMapBridge.replacedMapMessage
  /// The position in the map's trace of the first record `map:trace()` returns: where the
  /// script's current map or test case began (0, the whole trace, for a plugin).
  package var traceStart = 0

  enum Member {
    case property(LuaAPIImplementation.Getter, LuaAPIImplementation.Setter?)
    case method(LuaRef)
  }

  /// Whether `map:advance` and `map:settle` are allowed (scripts: yes; plugins: no, they
  /// must not drive time from inside the map's own loop).
  let allowsTimeControl: Bool
  /// The name `print` and `map:log` records carry in the trace (the plugin's name).
  var logSource: String?
  /// Whether callbacks (timers, `on_complete`) may run now (false once a plugin is disabled).
  var isActive = true
  /// Where an error raised by a callback the bridge calls (a timer, an `on_complete`) goes,
  /// with the callback's kind (`timer`, `on_complete`). Set by the owner of the state; it
  /// is handed the bridge rather than capturing it.
  package var reportError: (_ bridge: LuaMapBridge, _ context: String, _ error: LuaError) -> Void = { _, _, _ in }
  /// The content values of shown windows, to hand `map.info_window.content` back.
  package var contentStore: ContentStore?
  /// Where the redraws of this state's live views are counted (`waymark test --profile`),
  /// under the plugin's name (``logSource``, `script` for the script); nil: not counted.
  package var profile: PluginProfile?
  /// How `map:advance` or `map:settle` stopped when the script's budget ran out while the
  /// map ran (`settle: stopped at ...`): the timeout that follows says where the time went.
  package var budgetStop: String?
  /// The state's ``ValueRendering`` table: `map:log` joins its values with its `join`.
  package var values: LuaRef?
  /// What this state's code makes the host keep, and its limits (plugin or script).
  let quota: HostQuota
  /// Writes `map:snapshot(path?)`'s picture and returns the path written (nil: nothing
  /// written); nil for plugins, which cannot write files.
  package var snapshot: ((_ map: MapView, _ path: String?) throws -> String?)?

  /// The map the state drives now; nil before the first and after ``retireMap()``.
  private(set) var map: MapView?
  /// The userdata of ``map``.
  private(set) var mapRef: LuaRef?
  /// The table whose first value is the map whose methods the map type's `__index` answers
  /// from a table (`false` while there is none).
  private var currentMapHolder: LuaRef?
  /// ``MarkerField/slots`` as a Lua table (``pushMarkerFieldSlots(on:)``).
  var markerFieldSlots: LuaRef?
  private var members: [String: [String: Member]] = [:]
  /// The member names installed for each owner (what `waymark types` must declare).
  var installedMembers: [String: [String]] { members.mapValues { $0.keys.sorted() } }
  // The objects' identity caches and user data (LuaMapBridge+Objects.swift).
  /// The userdata of the current map's markers by serial (the hot path of every marker
  /// argument), in one Lua table: a marker added costs one `rawseti`, not a registry
  /// reference and an object of its own. The table keeps the userdata, which keeps the
  /// marker, alive.
  var markerObjects: LuaRef!
  /// The marker whose userdata each serial's entry of ``markerObjects`` is (a marker is
  /// known by its identity). Unchecked exclusivity: read and written only by the bridge's
  /// own short accesses, never across a call.
  @exclusivity(unchecked) var markerIdentities: [ObjectIdentifier?] = []
  /// The userdata of other markers: an earlier map's, or another map's added here.
  var foreignMarkerRefs: [ObjectIdentifier: LuaRef] = [:]
  var overlayRefs: [ObjectIdentifier: LuaRef] = [:]
  /// The timers pending on ``map``'s clock (cancelled when the map is retired).
  var timers: [VirtualClock.TaskID: LuaTimer] = [:]
  /// The cluster managers made by `map:clusters{}`, kept as long as the state (they follow the camera).
  package var clusterManagers: [ClusterManager] = []
  /// Per cluster manager, the item tables this state added: what `clusters_at` hands back.
  var clusterItemTables: [ObjectIdentifier: ClusterItemTables] = [:]
  /// The shared value each marker's local `user_data` was last taken from or published as.
  var userDataSources: [ObjectIdentifier: SharedUserData] = [:]
  /// The buffer every plain-data copy of this state's values is encoded in.
  let plainBuffer = LuaPlainBuffer()

  private init(allowsTimeControl: Bool, limits: HostLimits?) {
    self.allowsTimeControl = allowsTimeControl
    quota = HostQuota(
      limits ?? (allowsTimeControl ? .script : .plugin), owner: allowsTimeControl ? "the script" : "this plugin")
  }

  /// Installs the API into `state`, which from now on owns the bridge. Call once per state.
  /// `limits` default to ``HostLimits/script`` with time control, else ``HostLimits/plugin``.
  package static func install(in state: LuaState, allowsTimeControl: Bool = false, limits: HostLimits? = nil)
    throws(LuaError)
    -> LuaMapBridge
  {
    precondition(state.attachment == nil, "a Lua state has one map bridge")
    let bridge = LuaMapBridge(allowsTimeControl: allowsTimeControl, limits: limits)
    let stack = state.stack
    try stack.withStackBalance { () throws(LuaError) in
      for owner in LuaAPI.owners { bridge.installMembers(of: owner.name, on: stack) }
      bridge.installMetatable(for: Self.mapType, owner: "Map", on: stack)
      bridge.installMetatable(for: Self.markerType, owner: "Marker", version: markerVersion, on: stack)
      bridge.installMetatable(for: Self.overlayType, owner: "Overlay", on: stack)
      bridge.installMetatable(for: Self.timerType, owner: "Timer", on: stack)
      bridge.installMetatable(for: Self.projectionType, owner: "Projection", on: stack)
      bridge.installMetatable(for: Self.clustersType, owner: "Clusters", on: stack)
      bridge.startMarkerObjects(on: stack)
    }
    state.attachment = bridge
    return bridge
  }

  /// The bridge of the state `ref` lives in, nil once that state has closed.
  static func of(_ ref: LuaRef) -> LuaMapBridge? {
    ref.state?.attachment as? LuaMapBridge
  }

  /// Makes `map` the map this state drives; the previous one, if any, is retired first.
  package func attach(_ map: MapView, on stack: LuaStack) {
    retireMap()
    stack.push(map, as: Self.mapType)
    mapRef = stack.ref()
    self.map = map
    holdCurrentMap(on: stack)
    startMarkerObjects(on: stack)
  }

  /// Stops driving the current map: its pending timers are cancelled, and its handles raise
  /// ``replacedMapMessage`` from now on.
  package func retireMap() {
    if let map { for task in timers.keys { map.clock.cancel(task) } }
    for timer in timers.values { timer.task = nil }
    timers.removeAll()
    map = nil
    mapRef = nil
  }

  /// Tells the map type's `__index` that the current map answers its methods from the table.
  /// A map retired without a successor keeps answering so, and its methods refuse when called
  /// (checkSelf): retiring touches no Lua state, since a plugin's retires as it closes.
  /// Stack: 0.
  private func holdCurrentMap(on stack: LuaStack) {
    guard let currentMapHolder, let mapRef else { return }
    stack.push(currentMapHolder)
    stack.push(mapRef)
    stack.rawSetIndex(1, ofTableAt: -2)
    stack.pop()
  }

  // MARK: Installing from the registry

  private func installMembers(of owner: String, on stack: LuaStack) {
    var table: [String: Member] = [:]
    for entry in LuaAPI.entries(of: owner) {
      switch entry.implementation {
      case .property(let get, let set): table[entry.name] = .property(get, set)
      case .method(let body):
        stack.push(function: entry.name) { [self] context in
          try checkSelf(owner, context)
          do {
            return try body(self, context)
          } catch let error as MapError {
            throw error.luaError
          }
        }
        table[entry.name] = .method(stack.ref())
      }
    }
    members[owner] = table
  }

  /// Installs the metatable of `type`; with a `version`, its hot fields are cached
  /// (``cachedMarkerFields``).
  private func installMetatable<Object>(
    for type: LuaObjectType<Object>, owner: String, version: LuaVersionReader? = nil, on stack: LuaStack
  ) {
    stack.pushMetatable(for: type)
    if let version {
      stack.registerCachedIndex(
        inMetatableAt: -1, cached: Self.cachedMarkerFields, copied: Self.copiedFields, version: version
      ) { [self] context in try index(owner: owner, context) }
    } else {
      // Methods answer from a table (a loop calling map:add_marker looks add_marker up each
      // time); a stale map's methods refuse when called (checkSelf).
      stack.newTable()
      for case (let name, .method(let ref)) in members[owner] ?? [:] {
        stack.push(ref)
        stack.rawSetField(name, ofTableAt: -2)
      }
      stack.newTable()
      if owner == "Map" {
        stack.push(false)
        stack.rawSetIndex(1, ofTableAt: -2)
      }
      let holder = stack.ref()
      if owner == "Map" { currentMapHolder = holder }
      stack.registerMethodsIndex(inMetatableAt: -2, holder: holder) { [self] context in
        try index(owner: owner, context)
      }
    }
    stack.registerCacheClearingNewIndex(inMetatableAt: -1) { [self] context in
      try newIndex(owner: owner, context)
      return 0
    }
    // What print and tostring show: no address, so traces stay the same on every run.
    stack.register("__tostring", inTableAt: -1) { context in
      let stack = context.stack
      if let marker = stack.object(at: 1, as: Self.markerType) {
        stack.push("marker \(Self.quoted(marker.id))")
      } else if let overlay = stack.object(at: 1, as: Self.overlayType) {
        stack.push("overlay \(Self.quoted(overlay.id))")
      } else {
        stack.push(owner.lowercased())
      }
      return 1
    }
    stack.pop()
  }

  /// An id in double quotes, escaped as `inspect` escapes strings.
  package static func quoted(_ id: String) -> String {
    var out = "\""
    for scalar in id.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let code = String(scalar.value)
        out += "\\" + String(repeating: "0", count: 3 - code.count) + code
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// The values from `first` to the top of the stack as `print` writes them (joined by
  /// tabs, without addresses), through the state's ``ValueRendering`` table.
  func printedText(from first: Int32, on stack: LuaStack) throws -> String {
    let count = stack.top - first + 1
    guard count > 0 else { return "" }
    guard let values else {
      return (first...stack.top).map { stack.string(at: $0) ?? stack.typeName(at: $0) }.joined(separator: "\t")
    }
    let base = stack.top
    // join gets a copy of every argument: room for them, the table and the function (a C
    // function is promised only 20 free slots, and map:log may get thousands of arguments).
    guard stack.reserve(count + 2) else { throw LuaFunctionError("too many values to log (\(count))") }
    defer { stack.setTop(base) }
    stack.push(values)
    stack.rawGetField("join", ofTableAt: -1)
    for index in first...base { stack.pushValue(at: index) }
    try stack.call(arguments: count, results: 1)
    return try loggedText(at: -1, on: stack)
  }

  private func index(owner: String, _ context: LuaCallContext) throws -> Int32 {
    let stack = context.stack
    try requireCurrent(owner, stack)
    guard let key = stack.string(at: 2) else {
      throw LuaFunctionError("\(owner) has no field \(stack.typeName(at: 2)) key")
    }
    switch members[owner]?[key] {
    case .property(let get, _)?:
      do { try get(self, stack, 1) } catch let error as MapError { throw error.luaError }
    case .method(let ref)?: stack.push(ref)
    case nil: throw unknownMember(owner, key)
    }
    return 1
  }

  private func newIndex(owner: String, _ context: LuaCallContext) throws {
    let stack = context.stack
    try requireCurrent(owner, stack)
    guard let key = stack.string(at: 2) else {
      throw LuaFunctionError("\(owner) has no field \(stack.typeName(at: 2)) key")
    }
    switch members[owner]?[key] {
    case .property(_, let set?)?:
      do { try set(self, stack, 1, 3) } catch let error as MapError { throw error.luaError }
    case .property(_, nil)?: throw LuaFunctionError("\(owner.lowercased()).\(key) is read-only")
    case .method?: throw LuaFunctionError("\(owner.lowercased()).\(key) is a method; it cannot be assigned")
    case nil: throw unknownMember(owner, key)
    }
  }

  /// Throws when a map userdata other than the current map's is used (its map was replaced
  /// by a later `waymark.map`, or retired at the end of the script).
  private func requireCurrent(_ owner: String, _ stack: LuaStack) throws(LuaFunctionError) {
    guard owner == "Map", let object = stack.object(at: 1, as: Self.mapType), object !== map else { return }
    throw LuaFunctionError(staleMapMessage)
  }

  /// Requires a method's `self` to be of its owner (and a map to be the current one):
  /// `map.animate(...)` instead of `map:animate(...)` gets a hint.
  private func checkSelf(_ owner: String, _ context: LuaCallContext) throws(LuaFunctionError) {
    guard owner == "Map" else { return }
    let stack = context.stack
    guard let object = stack.object(at: 1, as: Self.mapType) else {
      throw LuaFunctionError(
        "bad self to '\(context.functionName)' (a map expected, got \(stack.typeName(at: 1))); call it as map:\(context.functionName)(...)"
      )
    }
    guard object === map else { throw LuaFunctionError(staleMapMessage) }
  }

  private func unknownMember(_ owner: String, _ key: String) -> LuaFunctionError {
    LuaFunctionError(LuaAPI.unknownMember(key, of: owner))
  }

  // MARK: Calling back into Lua

  /// Calls the Lua function `callback` (a timer's, an `on_complete`) with the arguments
  /// `push` pushes, in the state it lives in, reporting errors to the state's owner (a
  /// callback must never stop the map). Does nothing once that state has closed or its
  /// bridge is inactive: the map may keep such a callback longer than the state lives.
  static func invoke(_ callback: LuaRef, context: String, _ push: (LuaStack) -> Int32 = { _ in 0 }) {
    guard let state = callback.state, let bridge = state.attachment as? LuaMapBridge, bridge.isActive else { return }
    let stack = state.stack
    let base = stack.top
    defer { stack.setTop(base) }
    stack.push(callback)
    let count = push(stack)
    do {
      try stack.call(arguments: count, results: 0)
    } catch {
      bridge.reportError(bridge, context, error)
    }
  }
}
