import LuaKit
import WaymarkCore

/// Reading a cluster manager's items from Lua (`c:add`) and handing them back.
extension LuaAPI {
  /// The keys of a cluster item.
  static let clusterItemKeys = ["id", "position", "title", "snippet", "user_data"]

  /// `c:add(item | list | FeatureCollection)`: every item is read and checked before the
  /// manager takes any (R62), the user data charged to the state's share, and the tables
  /// remembered so that `clusters_at` hands them back.
  static func addClusterItems(_ bridge: LuaMapBridge, _ context: LuaCallContext) throws -> Int32 {
    let stack = context.stack
    let manager = try context.checkObject(1, as: LuaMapBridge.clustersType)
    let tables = itemTables(of: manager, bridge: bridge, on: stack)
    guard stack.type(at: 2) == .table else {
      throw LuaValues.typeError(
        "add", expected: "an item table, a list of them or a GeoJSON FeatureCollection", at: 2, on: stack)
    }
    let isCollection = stack.withStackBalance {
      stack.rawGetField("type", ofTableAt: 2) == .string && stack.string(at: -1) == "FeatureCollection"
    }
    let fields = try featureFields(at: 3, on: stack, collection: isCollection, call: "add")
    // The copies are bounded by the room left and what the items replaced might give back.
    let room = bridge.quota.sharedRoom(replacing: tables.sharedBytes)
    let items =
      isCollection
      ? try featureItems(
        at: 2, fields: fields, on: stack, bridge: bridge, room: room,
        firstTag: tables.nextTag)
      : try readClusterItems(at: 2, on: stack, bridge: bridge, room: room, firstTag: tables.nextTag)
    let shared = sharedChange(adding: items, to: manager, holding: tables.sharedBytes)
    try bridge.quota.chargeShared(shared.added, replacing: shared.replaced, what: "add: user_data")
    tables.sharedBytes += shared.added - shared.replaced
    // A collection's item tables were built on top of the stack by featureItems.
    tables.remember(items, at: isCollection ? -1 : 2, replacing: manager.add(items), on: stack)
    return 0
  }

  /// The bytes of user data `items` bring (an id listed twice counts once: the last wins) and
  /// the bytes of the manager's items they replace, which hold `held` bytes in all.
  private static func sharedChange(adding items: [ClusterItem], to manager: ClusterManager, holding held: Int)
    -> (added: Int, replaced: Int)
  {
    guard held > 0 || items.contains(where: { $0.userData != nil }) else { return (0, 0) }
    var latest: [String: ClusterItem] = [:]
    for item in items { latest[item.id] = item }
    let added = latest.values.reduce(0) { $0 + sharedSize(of: $1) }
    guard held > 0 else { return (added, 0) }
    return (added, latest.keys.reduce(0) { $0 + (manager.items.item(id: $1).map(sharedSize) ?? 0) })
  }

  /// Forgets the tables of `items`, which left `manager`, and gives back their user data's share.
  static func forget(_ items: [ClusterItem], of manager: ClusterManager, bridge: LuaMapBridge, on stack: LuaStack) {
    guard let tables = bridge.clusterItemTables[ObjectIdentifier(manager)] else { return }
    let size = tables.sharedBytes > 0 ? items.reduce(0) { $0 + sharedSize(of: $1) } : 0
    bridge.quota.releaseShared(size)
    tables.sharedBytes -= size
    tables.forget(items, on: stack)
  }

  private static func sharedSize(of item: ClusterItem) -> Int { (item.userData as? SharedUserData)?.size ?? 0 }

  /// One item table, or a list of them (a table whose first element is a table).
  private static func readClusterItems(
    at index: Int32, on stack: LuaStack, bridge: LuaMapBridge, room: Int, firstTag: Int
  ) throws(LuaFunctionError) -> [ClusterItem] {
    let table = stack.absoluteIndex(index)
    var room = room
    let first = stack.rawGetIndex(1, ofTableAt: table)
    stack.pop()
    guard first == .table else {
      return [try readClusterItem(at: table, on: stack, bridge: bridge, room: &room, field: "item", tag: firstTag)]
    }
    var items: [ClusterItem] = []
    for position in stride(from: 1, through: stack.rawLength(at: table), by: 1) {
      _ = stack.rawGetIndex(position, ofTableAt: table)
      defer { stack.pop() }
      items.append(
        try readClusterItem(
          at: stack.absoluteIndex(-1), on: stack, bridge: bridge, room: &room, field: "items[\(position)]",
          tag: firstTag + position - 1))
    }
    return items
  }

  private static func readClusterItem(
    at table: Int32, on stack: LuaStack, bridge: LuaMapBridge, room: inout Int, field: String, tag: Int
  ) throws(LuaFunctionError) -> ClusterItem {
    guard stack.type(at: table) == .table else {
      throw LuaValues.typeError(field, expected: "an item table", at: table, on: stack)
    }
    try LuaValues.requireKnownFields(ofTableAt: table, on: stack, allowed: clusterItemKeys, what: field)
    func read<T>(_ key: String, _ body: (Int32, String) throws(LuaFunctionError) -> T) throws(LuaFunctionError) -> T {
      do { _ = try stack.getField(key, ofTableAt: table) } catch { throw LuaFunctionError("\(field).\(key): \(error)") }
      defer { stack.pop() }
      return try body(-1, "\(field).\(key)")
    }
    let id = try read("id") { i, name throws(LuaFunctionError) in try LuaValues.string(at: i, on: stack, field: name) }
    let position = try read("position") { i, name throws(LuaFunctionError) in
      try LuaValues.coordinate(at: i, on: stack, field: name)
    }
    let title = try read("title") { i, name throws(LuaFunctionError) in
      try LuaValues.optionalString(at: i, on: stack, field: name)
    }
    let snippet = try read("snippet") { i, name throws(LuaFunctionError) in
      try LuaValues.optionalString(at: i, on: stack, field: name)
    }
    let shared: SharedUserData
    do { shared = try sharedData(field: "user_data", of: table, on: stack, bridge, room) } catch {
      throw LuaFunctionError("\(field).\(error.message)")
    }
    let userData = shared.isNil ? nil : shared
    room -= userData?.size ?? 0
    let item = ClusterItem(
      id: id, position: position, title: title, snippet: snippet, userData: userData, tag: tag)
    do { try item.validate(field) } catch { throw LuaFunctionError(error.luaDescription) }
    return item
  }

  /// The Point features of the FeatureCollection at `index` as items, read as `add_markers`
  /// reads them: the id from the feature's id (`item-N` without one, N its tag), title and
  /// snippet from the properties `fields` names, user_data the properties. Pushes the list of
  /// their item tables `{ id, position, title, snippet, user_data }`. Stack: +1.
  private static func featureItems(
    at index: Int32, fields: FeatureFields, on stack: LuaStack, bridge: LuaMapBridge, room: Int,
    firstTag: Int
  ) throws(LuaFunctionError) -> [ClusterItem] {
    guard stack.rawGetField("features", ofTableAt: index) == .table else {
      stack.pop()
      throw LuaFunctionError("add: a FeatureCollection without a features list")
    }
    let features = stack.top
    var room = room
    var items: [ClusterItem] = []
    let count = stack.rawLength(at: features)
    do throws(LuaFunctionError) {
      try LuaValues.requireList(ofTableAt: features, on: stack, count: count, what: "add: features")
      for position in stride(from: 1, through: count, by: 1) {
        _ = stack.rawGetIndex(position, ofTableAt: features)
        defer { stack.pop() }
        let item: ClusterItem
        do throws(LuaFunctionError) {
          let feature = try feature(at: stack.top, on: stack, fields: fields, bridge: bridge, room: room)
          let tag = firstTag + position - 1
          let userData = feature.shared
          room -= userData?.size ?? 0
          item = ClusterItem(
            id: feature.options.id ?? "item-\(tag)", position: feature.options.position,
            title: feature.options.title, snippet: feature.options.snippet, userData: userData, tag: tag)
        } catch {
          throw LuaFunctionError("add: features[\(position)]: \(error.message)")
        }
        do { try item.validate("features[\(position)]") } catch {
          throw LuaFunctionError("add: \(error.luaDescription)")
        }
        items.append(item)
      }
    } catch {
      stack.pop()
      throw error
    }
    stack.newTable(arrayCount: Int32(clamping: items.count))
    for (position, item) in items.enumerated() {
      _ = stack.rawGetIndex(position + 1, ofTableAt: features)
      stack.rawGetField("properties", ofTableAt: -1)
      stack.remove(at: -2)
      pushClusterItem(item, bridge: bridge, userDataAt: stack.top, on: stack)
      stack.remove(at: -2)
      stack.rawSetIndex(position + 1, ofTableAt: -2)
    }
    stack.remove(at: features)
    return items
  }

  /// `{ id, position, title, snippet, user_data }`, the user data the value at `userDataAt`
  /// (a feature's own properties table), else a copy of the item's. Stack: +1.
  static func pushClusterItem(
    _ item: ClusterItem, bridge: LuaMapBridge, userDataAt userData: Int32? = nil, on stack: LuaStack
  ) {
    stack.newTable(fieldCount: 5)
    stack.push(item.id)
    stack.rawSetField("id", ofTableAt: -2)
    LuaValues.push(item.position, on: stack)
    stack.rawSetField("position", ofTableAt: -2)
    if let title = item.title {
      stack.push(title)
      stack.rawSetField("title", ofTableAt: -2)
    }
    if let snippet = item.snippet {
      stack.push(snippet)
      stack.rawSetField("snippet", ofTableAt: -2)
    }
    if let userData {
      stack.pushValue(at: userData)
      stack.rawSetField("user_data", ofTableAt: -2)
    } else if let shared = item.userData as? SharedUserData {
      shared.push(on: stack, bridge: bridge)
      stack.rawSetField("user_data", ofTableAt: -2)
    }
  }
}
