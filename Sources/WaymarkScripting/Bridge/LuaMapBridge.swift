import LuaKit
import WaymarkCore

/// The Lua face of one map inside one Lua state: metatables built from ``LuaAPI``, the map
/// userdata, the identity caches of markers and overlays, per-state `user_data`, timers.
///
/// One bridge per state (a plugin's, or a script's). The bridge never owns its state; its
/// owner must keep the bridge alive until the state is closed (Lua closures reach it
/// unowned: a weakly referenced object pays slow reference counting on every retain, and
/// this is the hot path of every property access and dispatch).
final class LuaMapBridge {
  /// The userdata types. `getmetatable` on them returns false (LuaKit).
  static let mapType = LuaObjectType<MapView>("waymark.Map")
  static let markerType = LuaObjectType<Marker>("waymark.Marker")
  static let overlayType = LuaObjectType<Overlay>("waymark.Overlay")
  static let timerType = LuaObjectType<LuaTimer>("waymark.Timer")

  /// What the owner of the state lets its Lua code do, and where errors go.
  struct Options {
    /// Whether `map:advance` and `map:settle` are allowed (scripts: yes; plugins: no, they
    /// must not drive time from inside the map's own loop).
    var allowsTimeControl = false
    /// The name `print` and `map:log` records carry in the trace (the plugin's name).
    var logSource: String?
    /// Reports an error raised by a callback the bridge calls (a timer, an `on_complete`),
    /// with the callback's kind (`timer`, `on_complete`).
    var reportError: (_ context: String, _ error: LuaError) -> Void = { _, _ in }
    /// Whether callbacks may run now (false once a plugin is disabled or unloaded).
    var isActive: () -> Bool = { true }
    /// The content values of shown windows, to hand `map.info_window.content` back.
    var contentStore: ContentStore?
    /// The state's ``ValueRendering`` table: `map:log` joins its values with its `join`.
    var values: LuaRef?
  }

  enum Member {
    case property(LuaAPIImplementation.Getter, LuaAPIImplementation.Setter?)
    case method(LuaRef)
  }

  /// The state; weak, so the bridge never keeps it open.
  private(set) weak var state: LuaState?
  /// The map. Weak: the caller owns it (and the map userdata retains it for scripts).
  private(set) weak var map: MapView?
  var options: Options
  private(set) var mapRef: LuaRef!
  private var members: [String: [String: Member]] = [:]
  /// The member names installed for each owner (what `waymark types` must declare).
  var installedMembers: [String: [String]] { members.mapValues { $0.keys.sorted() } }
  private var markerRefs: [(marker: Marker, ref: LuaRef)?] = []
  private var foreignMarkerRefs: [ObjectIdentifier: LuaRef] = [:]
  private var overlayRefs: [ObjectIdentifier: LuaRef] = [:]
  private var userData: LuaRef!
  var timers: [VirtualClock.TaskID: LuaTimer] = [:]
  /// The shared value each marker's local `user_data` was last taken from or published as.
  private var userDataSources: [ObjectIdentifier: SharedUserData] = [:]
  private(set) var isClosed = false

  /// Installs the API into `state` for `map`.
  init(state: LuaState, map: MapView, options: Options) throws(LuaError) {
    self.state = state
    self.map = map
    self.options = options
    let stack = state.stack
    try stack.withStackBalance { () throws(LuaError) in
      for owner in LuaAPI.owners { installMembers(of: owner.name, on: stack) }
      installMetatable(for: Self.mapType, owner: "Map", on: stack)
      installMetatable(for: Self.markerType, owner: "Marker", on: stack)
      installMetatable(for: Self.overlayType, owner: "Overlay", on: stack)
      installMetatable(for: Self.timerType, owner: "Timer", on: stack)
      stack.push(map, as: Self.mapType)
      mapRef = stack.ref()
      stack.newTable()
      userData = stack.ref()
    }
  }

  /// Cancels the timers; later callbacks do nothing. Call before closing the state.
  func close() {
    isClosed = true
    if let map { for task in timers.keys { map.clock.cancel(task) } }
    timers.removeAll()
  }

  // MARK: Installing from the registry

  private func installMembers(of owner: String, on stack: LuaStack) {
    var table: [String: Member] = [:]
    for entry in LuaAPI.entries(of: owner) {
      switch entry.implementation {
      case .property(let get, let set): table[entry.name] = .property(get, set)
      case .method(let body):
        let name = entry.name
        stack.push(function: name) { [unowned self] context in
          guard !self.isClosed else { throw LuaFunctionError("\(name): the map is gone") }
          return try body(self, context)
        }
        table[entry.name] = .method(stack.ref())
      }
    }
    members[owner] = table
  }

  private func installMetatable<Object>(
    for type: LuaObjectType<Object>, owner: String, on stack: LuaStack
  ) {
    // A state may drive one map after another (a script calling waymark.map again): the
    // newest bridge takes the metatables over.
    _ = stack.pushMetatable(for: type)
    stack.register("__index", inTableAt: -1) { [unowned self] context in
      try self.index(owner: owner, context)
    }
    stack.register("__newindex", inTableAt: -1) { [unowned self] context in
      try self.newIndex(owner: owner, context)
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
  static func quoted(_ id: String) -> String {
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
    guard let values = options.values else {
      return (first...stack.top).map { stack.string(at: $0) ?? stack.typeName(at: $0) }.joined(separator: "\t")
    }
    let base = stack.top
    defer { stack.setTop(base) }
    stack.push(values)
    stack.rawGetField("join", ofTableAt: -1)
    for index in first...base { stack.pushValue(at: index) }
    try stack.call(arguments: count, results: 1)
    return stack.string(at: -1) ?? ""
  }

  private func index(owner: String, _ context: LuaCallContext) throws -> Int32 {
    let stack = context.stack
    try requireCurrent(owner, stack)
    guard let key = stack.string(at: 2) else {
      throw LuaFunctionError("\(owner) has no field \(stack.typeName(at: 2)) key")
    }
    switch members[owner]?[key] {
    case .property(let get, _)?: try get(self, stack, 1)
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
    case .property(_, let set?)?: try set(self, stack, 1, 3)
    case .property(_, nil)?: throw LuaFunctionError("\(owner.lowercased()).\(key) is read-only")
    case .method?: throw LuaFunctionError("\(owner.lowercased()).\(key) is a method; it cannot be assigned")
    case nil: throw unknownMember(owner, key)
    }
  }

  /// Throws when a map userdata of an earlier bridge in this state is used (its map was
  /// replaced by a newer `waymark.map`).
  private func requireCurrent(_ owner: String, _ stack: LuaStack) throws {
    guard owner == "Map", let object = stack.object(at: 1, as: Self.mapType), object !== map else { return }
    throw LuaFunctionError("this map was replaced by a newer waymark.map; a script drives one map at a time")
  }

  private func unknownMember(_ owner: String, _ key: String) -> LuaFunctionError {
    let names = members[owner].map { Array($0.keys) } ?? []
    return LuaFunctionError("\(owner) has no field '\(key)'\(Suggestion.hint(for: key, among: names))")
  }

  // MARK: Objects

  /// Pushes the map userdata. Stack: +1.
  func pushMap(on stack: LuaStack) { stack.push(mapRef) }

  /// Pushes the marker's userdata, the same one every time in this state. Stack: +1.
  func push(_ marker: Marker, on stack: LuaStack) {
    let serial = marker.serial
    if serial < markerRefs.count, let entry = markerRefs[serial], entry.marker === marker {
      return stack.push(entry.ref)
    }
    if let ref = foreignMarkerRefs[ObjectIdentifier(marker)] { return stack.push(ref) }
    stack.push(marker, as: Self.markerType)
    stack.pushValue(at: -1)
    let ref = stack.ref()
    if let map, marker.map === map || marker.map == nil, serial < 1 << 24,
      serial >= markerRefs.count || markerRefs[serial] == nil
    {
      if serial >= markerRefs.count {
        markerRefs.append(contentsOf: repeatElement(nil, count: serial - markerRefs.count + 1))
      }
      markerRefs[serial] = (marker, ref)
    } else {
      foreignMarkerRefs[ObjectIdentifier(marker)] = ref
    }
  }

  /// The reference of the marker's userdata (created on first use), for fast calls.
  func ref(for marker: Marker) -> LuaRef {
    let serial = marker.serial
    if serial < markerRefs.count, let entry = markerRefs[serial], entry.marker === marker { return entry.ref }
    if let ref = foreignMarkerRefs[ObjectIdentifier(marker)] { return ref }
    guard let state, !state.isClosed else { return mapRef }
    let stack = state.stack
    push(marker, on: stack)
    stack.pop()
    return ref(for: marker)
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

  /// The map, or an error if it was released.
  func requireMap() throws(LuaFunctionError) -> MapView {
    guard let map else { throw LuaFunctionError("the map is gone") }
    return map
  }

  /// Pushes the `user_data` of the marker at `index`. Stack: +1.
  ///
  /// Values are kept per state (so a table stays the same table here) and published to the
  /// marker as plain data (``SharedUserData``), so other plugins and the script see what was
  /// last assigned anywhere: a copy, refreshed whenever someone assigns again.
  func pushUserData(of index: Int32, on stack: LuaStack) {
    let index = stack.absoluteIndex(index)
    if let marker = stack.object(at: index, as: Self.markerType), let shared = marker.userData as? SharedUserData,
      userDataSources[ObjectIdentifier(marker)] !== shared
    {
      shared.value.push(on: stack, bridge: self)
      storeUserData(of: index, value: stack.top, on: stack)
      userDataSources[ObjectIdentifier(marker)] = shared
      return
    }
    stack.push(userData)
    stack.pushValue(at: index)
    stack.rawGet(ofTableAt: -2)
    stack.remove(at: -2)
  }

  /// Sets the `user_data` of the marker at `index` to the value at `value`, here and (as
  /// plain data) for every other state. Stack: 0.
  func setUserData(of index: Int32, to value: Int32, on stack: LuaStack) throws {
    let index = stack.absoluteIndex(index), value = stack.absoluteIndex(value)
    guard let marker = stack.object(at: index, as: Self.markerType) else {
      return storeUserData(of: index, value: value, on: stack)
    }
    let shared = SharedUserData(PlainValue.read(at: value, on: stack, bridge: self))
    let previous = userDataSources[ObjectIdentifier(marker)]?.size ?? 0
    guard publishedUserDataBytes - previous + shared.size <= Self.userDataQuota else {
      throw LuaFunctionError(
        "marker.user_data: this state would share more than \(Self.userDataQuota >> 20) MiB of user_data with the others"
          + " (\(shared.size) bytes for this value); keep large data in the plugin itself")
    }
    storeUserData(of: index, value: value, on: stack)
    try marker.update { $0.userData = shared }
    publishedUserDataBytes += shared.size - previous
    userDataSources[ObjectIdentifier(marker)] = shared
  }

  /// How many bytes of user_data one state may publish for the others to read: the copies
  /// live outside every Lua memory cap.
  static let userDataQuota = 8 << 20
  /// What this state has published so far, in bytes.
  private var publishedUserDataBytes = 0

  private func storeUserData(of index: Int32, value: Int32, on stack: LuaStack) {
    stack.push(userData)
    stack.pushValue(at: index)
    stack.pushValue(at: value)
    stack.rawSet(ofTableAt: -3)
    stack.pop()
  }

  // MARK: Calling back into Lua

  /// Calls the function `ref` with the arguments `push` pushes, reporting errors to the
  /// owner (a callback must never stop the map). Does nothing once closed or inactive.
  func invoke(_ ref: LuaRef, context: String, _ push: (LuaStack) -> Int32 = { _ in 0 }) {
    guard !isClosed, options.isActive(), let state, !state.isClosed else { return }
    let stack = state.stack
    let base = stack.top
    defer { stack.setTop(base) }
    stack.push(ref)
    let count = push(stack)
    do {
      try stack.call(arguments: count, results: 0)
    } catch {
      options.reportError(context, error)
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

/// A marker's `user_data` as plain data, shared by every Lua state (plugins, the script).
final class SharedUserData {
  /// The value last assigned.
  let value: PlainValue
  /// About how many bytes it takes.
  let size: Int
  init(_ value: PlainValue) {
    self.value = value
    size = value.size
  }
}
