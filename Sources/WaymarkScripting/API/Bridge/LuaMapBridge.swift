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
  private var markerFieldSlots: LuaRef?
  private var members: [String: [String: Member]] = [:]
  /// The member names installed for each owner (what `waymark types` must declare).
  var installedMembers: [String: [String]] { members.mapValues { $0.keys.sorted() } }
  /// The userdata of the current map's markers by serial (the hot path of every marker
  /// argument), in one Lua table: a marker added costs one `rawseti`, not a registry
  /// reference and an object of its own. The table keeps the userdata, which keeps the
  /// marker, alive.
  private var markerObjects: LuaRef!
  /// The marker whose userdata each serial's entry of ``markerObjects`` is (a marker is
  /// known by its identity). Unchecked exclusivity: read and written only by the bridge's
  /// own short accesses, never across a call.
  @exclusivity(unchecked) private var markerIdentities: [ObjectIdentifier?] = []
  /// The userdata of other markers: an earlier map's, or another map's added here.
  private var foreignMarkerRefs: [ObjectIdentifier: LuaRef] = [:]
  private var overlayRefs: [ObjectIdentifier: LuaRef] = [:]
  /// The timers pending on ``map``'s clock (cancelled when the map is retired).
  var timers: [VirtualClock.TaskID: LuaTimer] = [:]
  /// The cluster managers made by `map:clusters{}`, kept as long as the state (they follow the camera).
  package var clusterManagers: [ClusterManager] = []
  /// Per cluster manager, the item tables this state added: what `clusters_at` hands back.
  var clusterItemTables: [ObjectIdentifier: ClusterItemTables] = [:]
  /// The shared value each marker's local `user_data` was last taken from or published as.
  private var userDataSources: [ObjectIdentifier: SharedUserData] = [:]
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
      stack.newTable()
      bridge.markerObjects = stack.ref()
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
    // The fast cache by serial belongs to the current map's markers: earlier maps' markers
    // keep their userdata (identity) in the cache by object.
    for case let (serial, identity?) in markerIdentities.enumerated() {
      pushMarkerObject(serial, on: stack)
      foreignMarkerRefs[identity] = stack.ref()
    }
    markerIdentities.removeAll()
    stack.newTable()
    markerObjects = stack.ref()
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

  // MARK: Objects

  /// Pushes ``MarkerField/slots`` as a Lua table (name -> slot), made on first use. Stack: +1.
  func pushMarkerFieldSlots(on stack: LuaStack) {
    if let markerFieldSlots { return stack.push(markerFieldSlots) }
    stack.newTable(fieldCount: Int32(MarkerField.slots.count))
    for (name, slot) in MarkerField.slots {
      stack.push(slot)
      stack.rawSetField(name, ofTableAt: -2)
    }
    stack.pushValue(at: -1)
    markerFieldSlots = stack.ref()
  }

  /// Pushes the current map's userdata (nil when there is none). Stack: +1.
  package func pushMap(on stack: LuaStack) {
    if let mapRef { stack.push(mapRef) } else { stack.pushNil() }
  }

  /// Pushes the marker's userdata, the same one every time in this state (made on first
  /// use). Stack: +1.
  func push(_ marker: Marker, on stack: LuaStack) {
    let serial = marker.serial
    let identity = ObjectIdentifier(marker)
    if serial < markerIdentities.count, markerIdentities[serial] == identity {
      return pushMarkerObject(serial, on: stack)
    }
    if let ref = foreignMarkerRefs[identity] { return stack.push(ref) }
    if let map, marker.map === map || marker.map == nil, isFreeSerial(serial) {
      return pushNewObject(of: marker, serial: serial, on: stack)
    }
    stack.push(marker, as: Self.markerType)
    stack.pushValue(at: -1)
    foreignMarkerRefs[identity] = stack.ref()
  }

  /// Pushes the userdata of `marker`, which the current map has just created with `serial`
  /// (``MapView/nextMarkerSerial`` read before adding it): what adding a marker answers,
  /// without asking the marker its serial and map or looking it up among other maps'
  /// markers. Stack: +1.
  func pushCreated(_ marker: Marker, serial: Int, on stack: LuaStack) {
    // Not free: pushed already (a field applied before the answer), or past the table.
    guard isFreeSerial(serial) else { return push(marker, on: stack) }
    pushNewObject(of: marker, serial: serial, on: stack)
  }

  /// Whether `serial` can take a current-map marker's userdata in ``markerObjects``: not
  /// taken, and small enough for the table's array.
  private func isFreeSerial(_ serial: Int) -> Bool {
    serial < 1 << 24 && (serial >= markerIdentities.count || markerIdentities[serial] == nil)
  }

  /// Makes the userdata of `marker`, a current-map marker, and keeps it by `serial` (free).
  /// Stack: +1.
  private func pushNewObject(of marker: Marker, serial: Int, on stack: LuaStack) {
    stack.push(marker, as: Self.markerType)
    if serial >= markerIdentities.count {
      markerIdentities.append(contentsOf: repeatElement(nil, count: serial - markerIdentities.count + 1))
    }
    markerIdentities[serial] = ObjectIdentifier(marker)
    stack.push(markerObjects)
    stack.pushValue(at: -2)
    stack.rawSetIndex(serial, ofTableAt: -2)
    stack.pop()
  }

  /// Makes room for `count` markers the current map is about to create, `withUserData` of
  /// them with user data: what `add_markers` calls before adding them. Grows geometrically.
  func reserveCapacity(forMoreMarkers count: Int, withUserData shared: Int) {
    if let map {
      // Indexed by serial: room up to the last serial the markers will take.
      markerIdentities.reserveGeometrically(forMore: map.nextMarkerSerial + count - markerIdentities.count)
    }
    userDataSources.reserveCapacity(userDataSources.count + shared)
  }

  /// A reference to the marker's userdata (the userdata made on first use, on `stack`): what
  /// a dispatch table keeps to call handlers with it. A marker of the current map gets a new
  /// reference each call (the caller keeps it); another map's marker, the one kept for it.
  func ref(for marker: Marker, on stack: LuaStack) -> LuaRef {
    if let ref = foreignMarkerRefs[ObjectIdentifier(marker)] { return ref }
    push(marker, on: stack)
    return stack.ref()
  }

  /// Pushes the entry of ``markerObjects`` for `serial`. Stack: +1.
  private func pushMarkerObject(_ serial: Int, on stack: LuaStack) {
    stack.push(markerObjects)
    _ = stack.rawGetIndex(serial, ofTableAt: -1)
    stack.remove(at: -2)
  }

  /// Pushes the overlay's userdata, the same one every time in this state. Stack: +1.
  func push(_ overlay: Overlay, on stack: LuaStack) {
    if let ref = overlayRefs[ObjectIdentifier(overlay)] { return stack.push(ref) }
    stack.push(overlay, as: Self.overlayType)
    stack.pushValue(at: -1)
    overlayRefs[ObjectIdentifier(overlay)] = stack.ref()
  }

  /// Pushes a marker or nil. Stack: +1.
  func push(_ marker: Marker?, on stack: LuaStack) {
    if let marker { push(marker, on: stack) } else { stack.pushNil() }
  }

  /// The current map, or an error if it was replaced.
  func requireMap() throws(LuaFunctionError) -> MapView {
    guard let map else { throw LuaFunctionError(staleMapMessage) }
    return map
  }

  /// The current map's time (0 before the first map).
  package var now: Double { map?.clock.now ?? 0 }

  /// Adds a `log` record to the current map's trace, as `print` does.
  func log(_ text: String) {
    map?.log(text, source: logSource)
  }

  /// The string at `index` as a log record keeps it: at most
  /// ``MapView/longestLogMessage`` bytes, with a note of how many more were cut, copied only
  /// that far and charged to the state's log budget (``HostQuota``) first.
  package func loggedText(at index: Int32, on stack: LuaStack) throws(LuaFunctionError) -> String {
    let room = MapView.longestLogMessage - 64  // for the note
    guard let (text, length) = stack.string(at: index, atMost: room) else { return "" }
    try quota.chargeLog(min(length, MapView.longestLogMessage))
    guard length > text.utf8.count else { return text }
    return text + "… (\(length - text.utf8.count) more bytes)"
  }

  /// Pushes the `user_data` of the marker or overlay at `index`. Stack: +1.
  ///
  /// Values are kept per state (so a table stays the same table here) and published to the
  /// object as plain data (``SharedUserData``), so other plugins and the script see what was
  /// last assigned anywhere: a copy, refreshed whenever someone assigns again.
  func pushUserData(of index: Int32, on stack: LuaStack) {
    let index = stack.absoluteIndex(index)
    // A marker the clustering rendered holds its cluster or item there (R72).
    if let marker = stack.object(at: index, as: Self.markerType), let role = ClusterMarkerRole.of(marker) {
      if let cluster = role.cluster { return LuaAPI.pushCluster(cluster, bridge: self, on: stack) }
      if let item = role.item { return LuaAPI.pushClusterItem(item, bridge: self, on: stack) }
    }
    if let (object, published) = sharedUserData(at: index, on: stack),
      let shared = published as? SharedUserData, userDataSources[object] !== shared
    {
      shared.push(on: stack, bridge: self)
      storeUserData(of: index, value: stack.top, on: stack)
      userDataSources[object] = shared
      return
    }
    stack.pushHostValue(ofObjectAt: index)
  }

  /// The identity and the published `user_data` of the marker or overlay at `index`.
  private func sharedUserData(at index: Int32, on stack: LuaStack) -> (ObjectIdentifier, AnyObject?)? {
    if let marker = stack.object(at: index, as: Self.markerType) { return (ObjectIdentifier(marker), marker.userData) }
    if let overlay = stack.object(at: index, as: Self.overlayType) {
      return (ObjectIdentifier(overlay), overlay.userData)
    }
    return nil
  }

  /// Sets the `user_data` of the marker or overlay at `index` to the value at `value`, here
  /// and (as plain data) for every other state. Stack: 0.
  func setUserData(of index: Int32, to value: Int32, on stack: LuaStack) throws {
    let index = stack.absoluteIndex(index), value = stack.absoluteIndex(value)
    let marker = stack.object(at: index, as: Self.markerType)
    if let marker, ClusterMarkerRole.of(marker) != nil {
      // The role is what routes its taps and answers marker.cluster (R71, R72).
      throw LuaFunctionError(
        "marker.user_data: marker \(marker.id) was rendered by a cluster manager, which keeps its cluster or item"
          + " there (marker.cluster, marker.cluster_item); restyle it through its icon, title or snippet")
    }
    let overlay = stack.object(at: index, as: Self.overlayType)
    guard let (object, _) = sharedUserData(at: index, on: stack) else {
      return storeUserData(of: index, value: value, on: stack)
    }
    let field = marker != nil ? "marker.user_data" : "overlay.user_data"
    let previous = userDataSources[object]?.size ?? 0
    let shared: SharedUserData
    do {
      shared = try SharedUserData.read(
        at: value, on: stack, bridge: self, maxBytes: quota.sharedRoom(replacing: previous))
    } catch {
      throw LuaFunctionError(
        "\(field): \(error.message); \(quota.owner) shares at most \(formatBytes(quota.limits.sharedBytes))"
          + " of user_data with the others (keep large data in the state itself)")
    }
    try quota.chargeShared(shared.size, replacing: previous, what: field)
    storeUserData(of: index, value: value, on: stack)
    if let marker { try marker.update { $0.userData = shared } }
    overlay?.userData = shared
    userDataSources[object] = shared
  }

  /// Takes on the `user_data` of `marker`, which the state has just added (its userdata at
  /// `index`) with `shared` in its options: the plain-data copy, which the caller read (and
  /// so checked) already, of the value at `value`, which this state keeps as it is. Stack: 0.
  func adoptUserData(of marker: Marker, at index: Int32, value: Int32, shared: SharedUserData, on stack: LuaStack)
    throws
  {
    let index = stack.absoluteIndex(index), value = stack.absoluteIndex(value)
    try quota.chargeShared(shared.size, replacing: 0, what: "marker.user_data")
    storeUserData(of: index, value: value, on: stack)
    userDataSources[ObjectIdentifier(marker)] = shared
  }

  /// Keeps the value at `value` as this state's `user_data` of the object at `index`: in the
  /// object's own host value (no table keyed by objects to grow). Stack: 0.
  private func storeUserData(of index: Int32, value: Int32, on stack: LuaStack) {
    stack.pushValue(at: value)
    stack.setHostValue(ofObjectAt: index)
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

/// A callback scheduled on the map's clock (`map:after`), cancellable from Lua.
final class LuaTimer {
  /// The clock task.
  var task: VirtualClock.TaskID?
  /// Whether it still waits.
  var isPending: Bool { task != nil }
  init() {}
}
