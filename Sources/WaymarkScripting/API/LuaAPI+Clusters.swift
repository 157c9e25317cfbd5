import LuaKit
import WaymarkCore

extension LuaAPI {
  /// The keys of `map:clusters{}`.
  static let clusterOptionKeys = [
    "algorithm", "distance", "min_cluster_size", "max_cluster_zoom", "buckets", "animate",
  ]

  /// `map:clusters{}`, `Clusters`, and a rendered marker's `cluster` and `cluster_item`.
  static let clusterEntries: [LuaAPIEntry] = [
    .method(
      "Map", "clusters", [.init("options", "ClusterOptions?")], returns: "Clusters",
      "A cluster manager as Google Maps Utils' (R60-R64): { algorithm = 'distance'|'grid', distance = 100,"
        + " min_cluster_size = 4, max_cluster_zoom = 20, buckets = { 10, 50, 100, 200, 1000 }, animate = true }.",
      { bridge, context in
        let map = try bridge.requireMap()
        let options = try readClusterOptions(at: 2, on: context.stack)
        let manager = ClusterManager(map: map, options: options)
        bridge.clusterManagers.append(manager)
        context.stack.push(manager, as: LuaMapBridge.clustersType)
        return 1
      }),
    .method(
      "Map", "cluster_managers", returns: "Clusters[]",
      "The cluster managers this script or plugin made on the map, in the order made (what `waymark fuzz`"
        + " adds items to and removes them from).",
      { bridge, context in
        let map = try bridge.requireMap()
        let managers = bridge.clusterManagers.filter { $0.map === map }
        context.stack.newTable(arrayCount: Int32(clamping: managers.count))
        for (index, manager) in managers.enumerated() {
          context.stack.push(manager, as: LuaMapBridge.clustersType)
          context.stack.rawSetIndex(index + 1, ofTableAt: -2)
        }
        return 1
      }),
    .method(
      "Clusters", "add",
      [.init("items", "ClusterItem|ClusterItem[]|FeatureCollection"), .init("fields", "FeatureFields?")],
      "Adds an item { id =, position =, title =, snippet =, user_data = }, a list of them, or a GeoJSON"
        + " FeatureCollection's Point features as add_markers reads them, `fields` included (R62), all or"
        + " nothing; shown at the next clustering.",
      { bridge, context in try addClusterItems(bridge, context) }),
    .method(
      "Clusters", "remove", [.init("id", "string")], returns: "boolean",
      "Removes the item with this id; false if there is none (R62).",
      { bridge, context in
        let manager = try context.checkObject(1, as: LuaMapBridge.clustersType)
        let removed = manager.remove(id: try context.checkString(2))
        if let removed { forget([removed], of: manager, bridge: bridge, on: context.stack) }
        context.stack.push(removed != nil)
        return 1
      }),
    .method(
      "Clusters", "clear", [], "Removes every item; clusters again after 0.2 s (R64).",
      { bridge, context in
        let manager = try context.checkObject(1, as: LuaMapBridge.clustersType)
        manager.clear()
        if let tables = bridge.clusterItemTables.removeValue(forKey: ObjectIdentifier(manager)) {
          bridge.quota.releaseShared(tables.sharedBytes)
        }
        return 0
      }),
    .method(
      "Clusters", "cluster", [], "Clusters at the camera's rounded zoom and renders now (R64).",
      { _, context in
        try context.checkObject(1, as: LuaMapBridge.clustersType).cluster()
        return 0
      }),
    .method(
      "Clusters", "clusters_at", [.init("zoom", "number")], returns: "Cluster[]",
      "The algorithm's clusters at this zoom, in its order: { position, count, items } (R60, R61);"
        + " the items are the tables added, as a GMUCluster holds the caller's items (R62).",
      { bridge, context in
        let manager = try context.checkObject(1, as: LuaMapBridge.clustersType)
        let zoom = try context.checkNumber(2)
        guard zoom.isFinite, zoom >= 0, zoom <= 30 else {
          throw LuaFunctionError("clusters_at.zoom: \(formatNumber(zoom)) is outside 0...30")
        }
        let table = manager.clusterTable(at: zoom)
        let stack = context.stack
        stack.push(itemTables(of: manager, bridge: bridge, on: context.stack).tables)
        let tables = stack.absoluteIndex(-1)
        let set = manager.items
        let listing = ClusterListing(
          count: table.count, position: { table.positions[$0] },
          itemCount: { Int(table.starts[$0 + 1] - table.starts[$0]) },
          item: { cluster, index in set.item(inSlot: table.slots[Int(table.starts[cluster]) + index]) })
        pushClusters(listing, itemTablesAt: tables, bridge: bridge, on: stack)
        stack.remove(at: tables)
        return 1
      }),
    .method(
      "Clusters", "markers", returns: "Marker[]", "The markers the manager shows now, in the order it rendered them.",
      { bridge, context in
        let markers = try context.checkObject(1, as: LuaMapBridge.clustersType).markers
        context.stack.newTable(arrayCount: Int32(clamping: markers.count))
        for (index, marker) in markers.enumerated() {
          bridge.push(marker, on: context.stack)
          context.stack.rawSetIndex(index + 1, ofTableAt: -2)
        }
        return 1
      }),
    .property(
      "Marker", "cluster", "Cluster?",
      "The cluster a cluster marker stands for ({ position, count, items }), else nil.",
      get: { bridge, stack, object in
        guard let marker = stack.object(at: object, as: LuaMapBridge.markerType),
          let cluster = ClusterMarkerRole.of(marker)?.cluster
        else { return stack.pushNil() }
        pushCluster(cluster, bridge: bridge, on: stack)
      }),
    .property(
      "Marker", "cluster_item", "ClusterItem?", "The item an item's marker stands for, else nil.",
      get: { bridge, stack, object in
        guard let marker = stack.object(at: object, as: LuaMapBridge.markerType),
          let item = ClusterMarkerRole.of(marker)?.item
        else { return stack.pushNil() }
        pushClusterItem(item, bridge: bridge, on: stack)
      }),
  ]

  static func readClusterOptions(at index: Int32, on stack: LuaStack) throws(LuaFunctionError) -> ClusterOptions {
    var options = ClusterOptions()
    if LuaValues.isNil(index, on: stack) { return options }
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError("clusters", expected: "a table of options", at: index, on: stack)
    }
    try LuaValues.requireKnownFields(ofTableAt: index, on: stack, allowed: clusterOptionKeys, what: "clusters")
    func field<T>(_ key: String, _ read: (Int32) throws(LuaFunctionError) -> T) throws(LuaFunctionError) -> T? {
      do { _ = try stack.getField(key, ofTableAt: index) } catch { throw LuaFunctionError("clusters.\(key): \(error)") }
      defer { stack.pop() }
      return LuaValues.isNil(-1, on: stack) ? nil : try read(-1)
    }
    if let name = try field(
      "algorithm",
      { i throws(LuaFunctionError) in
        try LuaValues.string(at: i, on: stack, field: "clusters.algorithm")
      })
    {
      guard let algorithm = ClusterAlgorithm(rawValue: name) else {
        throw LuaFunctionError("clusters.algorithm: \"\(name)\" is not 'distance' or 'grid'")
      }
      options.algorithm = algorithm
    }
    if let distance = try field(
      "distance",
      { i throws(LuaFunctionError) in
        try LuaValues.number(at: i, on: stack, field: "clusters.distance")
      })
    {
      guard distance.isFinite, distance > 0, distance <= 10_000 else {
        throw LuaFunctionError(
          "clusters.distance: \(formatNumber(distance)) is not a number of points above 0 and at most 10000")
      }
      options.distance = distance
    }
    if let size = try field(
      "min_cluster_size",
      { i throws(LuaFunctionError) in
        try LuaValues.number(at: i, on: stack, field: "clusters.min_cluster_size")
      })
    {
      guard let whole = Int(exactly: size), whole >= 1 else {
        throw LuaFunctionError("clusters.min_cluster_size: \(formatNumber(size)) is not a whole number from 1")
      }
      options.minClusterSize = whole
    }
    if let zoom = try field(
      "max_cluster_zoom",
      { i throws(LuaFunctionError) in
        try LuaValues.number(at: i, on: stack, field: "clusters.max_cluster_zoom")
      })
    {
      guard zoom.isFinite else {
        throw LuaFunctionError("clusters.max_cluster_zoom: \(formatNumber(zoom)) is not a finite number")
      }
      options.maxClusterZoom = zoom
    }
    if let buckets = try field("buckets", { i throws(LuaFunctionError) in try readBuckets(at: i, on: stack) }) {
      do { options.iconStyle = try ClusterIconStyle(buckets: buckets, field: "clusters.buckets") } catch {
        throw error.luaError
      }
    }
    if let animate = try field(
      "animate",
      { i throws(LuaFunctionError) in
        try LuaValues.boolean(at: i, on: stack, field: "clusters.animate")
      })
    {
      options.animate = animate
    }
    return options
  }

  private static func readBuckets(at index: Int32, on stack: LuaStack) throws(LuaFunctionError) -> [Int] {
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError("clusters.buckets", expected: "a list of counts", at: index, on: stack)
    }
    let table = stack.absoluteIndex(index)
    let count = stack.rawLength(at: table)
    try LuaValues.requireKnownFields(
      ofTableAt: table, on: stack, allowed: [], positions: count, what: "clusters.buckets")
    var buckets: [Int] = []
    for position in stride(from: 1, through: count, by: 1) {
      _ = stack.rawGetIndex(position, ofTableAt: table)
      defer { stack.pop() }
      let value = try LuaValues.number(at: -1, on: stack, field: "clusters.buckets[\(position)]")
      guard let whole = Int(exactly: value) else {
        throw LuaFunctionError("clusters.buckets[\(position)]: \(formatNumber(value)) is not a whole number")
      }
      buckets.append(whole)
    }
    return buckets
  }

  /// `{ position, count, items }`, the items as new item tables. Stack: +1.
  static func pushCluster(_ cluster: Cluster, bridge: LuaMapBridge, on stack: LuaStack) {
    let listing = ClusterListing(
      count: 1, position: { _ in cluster.position }, itemCount: { _ in cluster.count },
      item: { _, index in cluster.items[index] })
    pushClusters(listing, itemTablesAt: nil, bridge: bridge, on: stack)
    stack.rawGetIndex(1, ofTableAt: -1)
    stack.remove(at: -2)
  }

  /// Pushes the list of `clusters`, each `{ position, count, items }`, the items the caller's
  /// own tables from the table of tags at `tables` (``ClusterItemTables``) where it holds them,
  /// else new item tables. A cluster standing where its first item stands (every cluster of
  /// the distance algorithm, R60) hands out that item's `position` table while its `lat` and
  /// `lng` still say so, as it hands out the item itself: `clusters_at` builds tens of
  /// thousands of clusters at a high zoom, and a table fewer for each is a third less to
  /// allocate and collect. Each cluster is two C calls (LuaKit's `pushList` and
  /// `wrapCluster`), with the field names pushed once for all. Stack: +1.
  static func pushClusters(
    _ clusters: ClusterListing, itemTablesAt tables: Int32?, bridge: LuaMapBridge, on stack: LuaStack
  ) {
    let names = ["position", "count", "items", "lat", "lng"]
    for name in names { stack.push(name) }
    let key = stack.absoluteIndex(-Int32(names.count))
    stack.newTable(arrayCount: Int32(clamping: clusters.count))
    var tags: [Int64] = []
    for index in 0..<clusters.count {
      let count = clusters.itemCount(index)
      tags.removeAll(keepingCapacity: true)
      for item in 0..<count { tags.append(Int64(clusters.item(index, item).tag)) }
      let missing = tags.withUnsafeBufferPointer { stack.pushList(fromTableAt: tables, keys: $0) }
      if missing > 0 {
        // Items this state did not add, or whose tables describe another item now: new tables.
        for item in 0..<count {
          let present = stack.rawGetIndex(item + 1, ofTableAt: -1) == .table
          stack.pop()
          if present { continue }
          pushClusterItem(clusters.item(index, item), bridge: bridge, on: stack)
          stack.rawSetIndex(item + 1, ofTableAt: -2)
        }
      }
      let at = clusters.position(index)
      stack.wrapCluster(keysAt: key, count: count, latitude: at.latitude, longitude: at.longitude)
      stack.rawSetIndex(index + 1, ofTableAt: -2)
    }
    stack.insert(at: key)
    stack.pop(Int32(names.count))
  }
}

extension LuaAPIShape {
  /// Options of `map:clusters{}`.
  static let clusterOptions = LuaAPIShape(
    name: "ClusterOptions", doc: "Options of map:clusters (R60-R64); every key is optional.",
    fields: [
      .init("algorithm", "'distance'|'grid'?"), .init("distance", "number?"), .init("min_cluster_size", "integer?"),
      .init("max_cluster_zoom", "number?"), .init("buckets", "integer[]?"), .init("animate", "boolean?"),
    ])
  /// A cluster item.
  static let clusterItem = LuaAPIShape(
    name: "ClusterItem",
    doc:
      "An item a cluster manager groups (R62); its marker copies title and snippet; user_data is seen by every plugin.",
    fields: [
      .init("id", "string"), .init("position", "Coordinate"), .init("title", "string?"), .init("snippet", "string?"),
      .init("user_data", "any"),
    ])
  /// A cluster.
  static let cluster = LuaAPIShape(
    name: "Cluster", doc: "A cluster at one zoom: where its marker stands, and its items in the order added.",
    fields: [.init("position", "Coordinate"), .init("count", "integer"), .init("items", "ClusterItem[]")])
}

/// Clusters as ``LuaAPI/pushClusters(_:itemTablesAt:bridge:on:)`` reads them: a
/// ``ClusterTable``'s, or ``Cluster`` objects'.
struct ClusterListing {
  /// How many clusters there are.
  let count: Int
  /// Where cluster `c` stands.
  let position: (_ cluster: Int) -> Coordinate
  /// How many items cluster `c` holds.
  let itemCount: (_ cluster: Int) -> Int
  /// Item `i` of cluster `c`, in the order added.
  let item: (_ cluster: Int, _ index: Int) -> ClusterItem
}
