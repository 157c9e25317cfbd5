import LuaKit
import WaymarkCore

extension LuaAPI {
  /// `map:add_markers`: many markers at once, all or nothing.
  static let bulkMarkerEntries: [LuaAPIEntry] = [
    .method(
      "Map", "add_markers", [.init("items", "MarkerOptions[]|FeatureCollection"), .init("fields", "FeatureFields?")],
      returns: "Marker[]",
      "Adds many markers at once, all or nothing, and returns them in order: a list of marker options, or a GeoJSON"
        + " FeatureCollection whose Point features become markers (id from the feature's id; title and snippet from"
        + " the properties of those names, or of the names `fields` gives; user_data the properties). A bad item is"
        + " an error naming its index and field, and nothing is added.",
      { bridge, context in try addMarkers(bridge, context) })
  ]

  /// One validated item: its options and the user data it carries.
  struct BulkItem {
    var options: MarkerOptions
    /// The plain-data copy of what becomes its user data: a list item's `user_data`, a
    /// feature's `properties`.
    var shared: SharedUserData?
    /// The marker fields a list item's table sets (none for a feature).
    var present = MarkerField.Present()
  }

  private static func addMarkers(_ bridge: LuaMapBridge, _ context: LuaCallContext) throws -> Int32 {
    let stack = context.stack
    let map = try bridge.requireMap()
    guard stack.type(at: 2) == .table else {
      throw context.typeError(2, expected: "a list of marker options or a GeoJSON FeatureCollection")
    }
    let isCollection = stack.withStackBalance {
      stack.rawGetField("type", ofTableAt: 2) == .string && stack.string(at: -1) == "FeatureCollection"
    }
    let fields = try featureFields(at: 3, on: stack, collection: isCollection)
    if isCollection {
      guard stack.rawGetField("features", ofTableAt: 2) == .table else {
        throw LuaFunctionError("add_markers: a FeatureCollection without a features list")
      }
    } else {
      stack.pushValue(at: 2)
    }
    let list = stack.top
    let count = stack.rawLength(at: list)
    if isCollection {
      try LuaValues.requireList(ofTableAt: list, on: stack, count: count, what: "add_markers: features")
    } else {
      try requireItemList(at: list, count: count, on: stack)
    }
    try bridge.quota.requireRoomForObjects(count, what: "add_markers")
    var items: [BulkItem?] = []
    items.reserveCapacity(count)
    var ids = Set<String>(minimumCapacity: count)
    var sharedRoom = bridge.quota.sharedRoom(replacing: 0)
    var sharedCount = 0
    for position in 1..<(count + 1) {
      _ = stack.rawGetIndex(position, ofTableAt: list)
      defer { stack.pop() }
      do {
        let item =
          isCollection
          ? try feature(at: stack.top, on: stack, fields: fields, bridge: bridge, room: sharedRoom)
          : try listItem(at: stack.top, on: stack, bridge: bridge, room: sharedRoom)
        // A feature's options are made from data: only its position and texts can be wrong.
        if isCollection { try item.options.validateMadeFromData() } else { try item.options.validate() }
        if let id = item.options.id, !ids.insert(id).inserted {
          throw LuaFunctionError("id \"\(id)\" is given to an earlier item")
        }
        if let shared = item.shared {
          sharedRoom -= shared.size
          sharedCount += 1
        }
        items.append(item)
      } catch let error as MapError {
        try requireNoIDOnTheMap(items, map)
        throw LuaFunctionError("add_markers: item \(position): \(error.luaDescription)")
      } catch let error as LuaFunctionError {
        try requireNoIDOnTheMap(items, map)
        let message = ["add_marker: ", "add_markers: "].reduce(error.message) {
          $0.hasPrefix($1) ? String($0.dropFirst($1.count)) : $0
        }
        throw LuaFunctionError("add_markers: item \(position): \(message)")
      }
    }
    // Whether the map has one of the ids is asked once for all items, not of each: an error
    // names the first item (an item's own error above names an earlier one first).
    if mayHaveAny(of: ids, map) { try requireNoIDOnTheMap(items, map) }
    // Everything is checked: from here on nothing can fail, so all the markers are added.
    map.reserveCapacity(forMoreMarkers: count, withIDs: ids.count)
    bridge.reserveCapacity(forMoreMarkers: count, withUserData: sharedCount)
    // The key of each item's user data, pushed once: a name pushed per item is hashed per item.
    stack.push(isCollection ? "properties" : "user_data")
    let userDataKey = stack.top
    stack.newTable(arrayCount: Int32(clamping: count))
    let result = stack.top
    // All that the loop makes stays reachable from the result: collection steps its
    // allocations would drive cannot free any of it.
    let paused = stack.pauseCollector()
    defer { stack.resumeCollector(ifPaused: paused) }
    for offset in 0..<count {
      // Moved out of the list, not copied (a copy retains and releases each of its values).
      guard var item = items[offset].take() else { preconditionFailure("add_markers: an item taken twice") }
      let serial = map.nextMarkerSerial
      // The user data goes in with the options: set afterwards, it would change the marker.
      let shared = item.shared
      if let shared { item.options.userData = shared }
      let marker = map.addChecked(item.options)
      bridge.quota.added(marker)
      _ = stack.rawGetIndex(offset + 1, ofTableAt: list)
      let table = stack.top
      bridge.pushCreated(marker, serial: serial, on: stack)
      MarkerField.applyAfterwards(item.present, ofTableAt: table, to: marker, bridge, on: stack)
      if let shared {
        stack.pushValue(at: userDataKey)
        _ = stack.rawGet(ofTableAt: table)
        try bridge.adoptUserData(of: marker, at: -2, value: -1, shared: shared, on: stack)
        stack.pop()
      }
      stack.rawSetIndex(offset + 1, ofTableAt: result)
      stack.pop()
    }
    return 1
  }

  /// Throws naming the first of `items` whose id a marker on `map` has, if any.
  private static func requireNoIDOnTheMap(_ items: [BulkItem?], _ map: MapView) throws(LuaFunctionError) {
    for (offset, item) in items.enumerated() {
      if let id = item?.options.id, map.marker(id: id) != nil {
        throw LuaFunctionError("add_markers: item \(offset + 1): id \"\(id)\" is already used by a marker on the map")
      }
    }
  }

  /// Whether a marker on `map` may have one of `ids`. When the map indexes fewer ids than
  /// there are, each of its indexed ids is looked up among `ids` (and only ids of the form
  /// `marker-N`, which the map generates without indexing them, are looked up on the map);
  /// else each of `ids` is looked up on the map.
  private static func mayHaveAny(of ids: Set<String>, _ map: MapView) -> Bool {
    guard map.indexedMarkerIDs.count < ids.count else { return ids.contains { map.marker(id: $0) != nil } }
    return map.indexedMarkerIDs.contains(where: ids.contains)
      || ids.contains { $0.hasPrefix(Marker.generatedIDPrefix) && map.marker(id: $0) != nil }
  }

  /// Throws unless the table at `index`, which is not a FeatureCollection, is a list of
  /// items, saying what it is instead: a lone Feature or another table with a `type`, one
  /// marker's options, or a table with other keys.
  private static func requireItemList(at index: Int32, count: Int, on stack: LuaStack) throws(LuaFunctionError) {
    let expected = "a list of marker options or a FeatureCollection"
    let type = stack.withStackBalance {
      stack.rawGetField("type", ofTableAt: index) == .string ? stack.string(at: -1) : nil
    }
    // Marker options have no `type`: a table with one is GeoJSON (or meant as such).
    if type == "Feature" {
      throw LuaFunctionError(
        "add_markers: expected \(expected), got a GeoJSON Feature (wrap it in a FeatureCollection: "
          + "{ type = \"FeatureCollection\", features = { feature } })")
    }
    if let type {
      throw LuaFunctionError(
        "add_markers: expected \(expected), got a table whose type is \"\(type)\" (only the Point features of a "
          + "FeatureCollection become markers)")
    }
    let isOneMarker = count == 0 && stack.withStackBalance { stack.rawGetField("position", ofTableAt: index) != .nil }
    if isOneMarker {
      throw LuaFunctionError(
        "add_markers: expected \(expected), got one marker's options (map:add_marker adds one; add_markers takes a "
          + "list of them: { options })")
    }
    try LuaValues.requireList(ofTableAt: index, on: stack, count: count, what: "add_markers", expected: expected)
  }

  /// Which properties give a feature's title and snippet, both names also pushed on the
  /// stack, with the other keys of the C reader of ordinary features.
  struct FeatureFields {
    /// The property that gives the title.
    let title: String
    /// The property that gives the snippet.
    let snippet: String
    /// Where the reader's keys are on the stack.
    let keys: LuaFeatureKeys

    /// Each marker field with the property that gives it, in the order of the fields' names
    /// (the order the reader checks them in).
    var pairs: [(field: String, property: String)] { [("snippet", snippet), ("title", title)] }
  }

  /// `fields`: which property gives a feature's title and which its snippet, pushed on the
  /// stack for the whole call with the reader's other keys; `call` names the method in
  /// messages (`add_markers`, a cluster manager's `add`). Stack: +9.
  static func featureFields(at index: Int32, on stack: LuaStack, collection: Bool, call: String = "add_markers")
    throws(LuaFunctionError) -> FeatureFields
  {
    var title = "title", snippet = "snippet"
    if !LuaValues.isNil(index, on: stack) {
      guard collection else {
        throw LuaFunctionError("\(call): fields only apply to a GeoJSON FeatureCollection")
      }
      guard stack.type(at: index) == .table else {
        throw LuaValues.typeError("\(call) fields", expected: "a table { title =, snippet = }", at: index, on: stack)
      }
      try LuaValues.requireKnownFields(
        ofTableAt: index, on: stack, allowed: ["title", "snippet"], what: "\(call) fields")
      func property(_ name: String, default value: String) throws(LuaFunctionError) -> String {
        try stack.withStackBalance { () throws(LuaFunctionError) in
          guard stack.rawGetField(name, ofTableAt: index) != .nil else { return value }
          return try LuaValues.string(at: -1, on: stack, field: "\(call) fields.\(name)")
        }
      }
      title = try property("title", default: title)
      snippet = try property("snippet", default: snippet)
    }
    return FeatureFields(title: title, snippet: snippet, keys: stack.pushFeatureKeys(title: title, snippet: snippet))
  }

  private static func listItem(at index: Int32, on stack: LuaStack, bridge: LuaMapBridge, room: Int) throws
    -> BulkItem
  {
    let (options, present) = try readMarkerOptions(at: index, on: stack, bridge: bridge)
    guard present.hasUserData else { return BulkItem(options: options, present: present) }
    let shared = try sharedData(field: "user_data", of: index, on: stack, bridge, room)
    return BulkItem(options: options, shared: shared, present: present)
  }

  /// The plain-data copy of `table[field]`, in at most `room` bytes.
  static func sharedData(
    field: String, of index: Int32, on stack: LuaStack, _ bridge: LuaMapBridge, _ room: Int
  )
    throws(LuaFunctionError) -> SharedUserData
  {
    _ = stack.rawGetField(field, ofTableAt: index)
    defer { stack.pop() }
    return try sharedData(at: -1, field: field, on: stack, bridge, room)
  }

  /// The plain-data copy of the value at `index`, `field` in messages, in at most `room` bytes.
  static func sharedData(at index: Int32, field: String, on stack: LuaStack, _ bridge: LuaMapBridge, _ room: Int)
    throws(LuaFunctionError) -> SharedUserData
  {
    do throws(LuaFunctionError) {
      return try SharedUserData.read(at: index, on: stack, bridge: bridge, maxBytes: room)
    } catch {
      let limit = formatBytes(bridge.quota.limits.sharedBytes)
      throw LuaFunctionError(
        "\(field): \(error.message); \(bridge.quota.owner) shares at most \(limit) of user_data with the others")
    }
  }

  /// A GeoJSON Point feature as marker options (RFC 7946: coordinates are longitude, latitude).
  /// `fields`: which property gives the title and which the snippet.
  static func feature(
    at index: Int32, on stack: LuaStack, fields: FeatureFields, bridge: LuaMapBridge, room: Int
  ) throws(LuaFunctionError) -> BulkItem {
    if var point = stack.pointFeature(at: index, keys: fields.keys) {
      defer { stack.pop() }  // the properties
      var options = MarkerOptions(position: Coordinate(latitude: point.latitude, longitude: point.longitude))
      // Moved, not copied: a copy of a String? costs a retain, its release and ~100 instructions.
      options.id = point.id.take()
      options.title = point.title.take()
      options.snippet = point.snippet.take()
      guard point.hasProperties else { return BulkItem(options: options) }
      return BulkItem(options: options, shared: try sharedData(at: -1, field: "properties", on: stack, bridge, room))
    }
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError("the feature", expected: "a GeoJSON Feature", at: index, on: stack)
    }
    try stack.withStackBalance { () throws(LuaFunctionError) in
      guard stack.rawGetField("type", ofTableAt: index) == .string, stack.string(at: -1) == "Feature" else {
        throw LuaFunctionError("type: expected \"Feature\", got \(shown(at: -1, on: stack))")
      }
    }
    let coordinate = try stack.withStackBalance { () throws(LuaFunctionError) -> Coordinate in
      guard stack.rawGetField("geometry", ofTableAt: index) == .table else {
        throw LuaFunctionError("geometry: expected a Point geometry, got \(shown(at: -1, on: stack))")
      }
      let geometry = stack.top
      let type = stack.rawGetField("type", ofTableAt: geometry) == .string ? stack.string(at: -1) : nil
      guard type == "Point" else {
        throw LuaFunctionError(
          "geometry.type: \(type.map { "\"\($0)\"" } ?? "missing"): only Point features become markers")
      }
      guard stack.rawGetField("coordinates", ofTableAt: geometry) == .table else {
        throw LuaFunctionError("geometry.coordinates: expected { longitude, latitude }")
      }
      let list = stack.top
      _ = stack.rawGetIndex(1, ofTableAt: list)
      let longitude = try LuaValues.number(at: -1, on: stack, field: "geometry.coordinates[1]")
      _ = stack.rawGetIndex(2, ofTableAt: list)
      let latitude = try LuaValues.number(at: -1, on: stack, field: "geometry.coordinates[2]")
      return Coordinate(latitude: latitude, longitude: longitude)
    }
    var options = MarkerOptions(position: coordinate)
    options.id = try stack.withStackBalance { () throws(LuaFunctionError) -> String? in
      switch stack.rawGetField("id", ofTableAt: index) {
      case .nil: return nil
      case .string: return stack.string(at: -1)
      case .number:
        if let n = stack.integer(at: -1) { return String(n) }
        return stack.number(at: -1).map { "\($0)" }
      default: throw LuaValues.typeError("id", expected: "a string or a number", at: -1, on: stack)
      }
    }
    let hasProperties = try stack.withStackBalance { () throws(LuaFunctionError) -> Bool in
      switch stack.rawGetField("properties", ofTableAt: index) {
      case .nil: return false
      case .table:
        let properties = stack.top
        for (field, property) in fields.pairs {
          let text: String?
          switch stack.rawGetField(property, ofTableAt: properties) {
          case .nil: text = nil
          case .string: text = stack.string(at: -1)
          case .number: text = stack.integer(at: -1).map(String.init) ?? stack.number(at: -1).map { "\($0)" }
          default:
            throw LuaValues.typeError("properties.\(property)", expected: "a string", at: -1, on: stack)
          }
          stack.pop()
          if field == "title" { options.title = text } else { options.snippet = text }
        }
        return true
      default: throw LuaValues.typeError("properties", expected: "an object or null", at: -1, on: stack)
      }
    }
    guard hasProperties else { return BulkItem(options: options) }
    return BulkItem(options: options, shared: try sharedData(field: "properties", of: index, on: stack, bridge, room))
  }

  /// A string value quoted, any other value by its type: for messages.
  static func shown(at index: Int32, on stack: LuaStack) -> String {
    stack.type(at: index) == .string ? "\"\(stack.string(at: index) ?? "")\"" : stack.typeName(at: index)
  }
}
