import LuaKit
import WaymarkCore

/// The bridge's objects: the userdata of markers and overlays, the same one every time in a
/// state (identity), and their per-state `user_data`.
extension LuaMapBridge {
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

  /// Gives the markers of the map just replaced the userdata they had, kept by object from
  /// now on, and starts ``markerObjects`` afresh: the fast cache by serial belongs to the
  /// current map's markers. Stack: 0.
  func startMarkerObjects(on stack: LuaStack) {
    for case let (serial, identity?) in markerIdentities.enumerated() {
      pushMarkerObject(serial, on: stack)
      foreignMarkerRefs[identity] = stack.ref()
    }
    markerIdentities.removeAll()
    stack.newTable()
    markerObjects = stack.ref()
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
}
