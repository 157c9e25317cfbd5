import LuaKit
import WaymarkCore

/// The item tables one state added to one cluster manager, so that `clusters_at` hands back
/// the caller's own tables, as a GMUCluster holds the caller's own GMUClusterItem objects
/// (R62), instead of building two tables an item on every call. A marker's `cluster` and the
/// delegate's clusters are read by other states too, and are built afresh
/// (``LuaAPI/pushCluster(_:bridge:on:)``).
///
/// Each item carries a tag, its index in ``tables``: `tables[tag]` is the item's table, and
/// `tables[table]` the tag the table was last added under. A table added again as another item
/// (one table filled anew for each `add`) leaves `false` under its earlier tag: that item's
/// table no longer describes it, and is built afresh.
final class ClusterItemTables {
  /// The table of tags and tables.
  let tables: LuaRef
  /// The tag of the next item added.
  private(set) var nextTag = 1
  /// The bytes of `user_data` the manager's items added here hold, charged to the state.
  var sharedBytes = 0

  /// An empty store whose table is the value on top. Stack: -1.
  init(on stack: LuaStack) { tables = stack.ref() }

  /// Records the table at `index`, or each table of the list there, under the tag of its item
  /// in `items` (as read from it, after the manager took them all: a refused list records
  /// nothing), and forgets the tables of the items they `replaced`. Stack: 0.
  func remember(_ items: [ClusterItem], at index: Int32, replacing replaced: [ClusterItem], on stack: LuaStack) {
    let list = stack.absoluteIndex(index)
    forget(replaced, on: stack)
    stack.push(tables)
    defer { stack.pop() }
    let store = stack.absoluteIndex(-1)
    let isList = stack.rawGetIndex(1, ofTableAt: list) == .table
    stack.pop()
    for (position, item) in items.enumerated() {
      if isList { stack.rawGetIndex(position + 1, ofTableAt: list) } else { stack.pushValue(at: list) }
      // A table already added as another item no longer describes that one.
      stack.pushValue(at: -1)
      if stack.rawGet(ofTableAt: store) == .number, let earlier = stack.integer(at: -1) {
        stack.push(false)
        stack.rawSetIndex(earlier, ofTableAt: store)
      }
      stack.pop()
      stack.pushValue(at: -1)
      stack.push(item.tag)
      stack.rawSet(ofTableAt: store)
      stack.rawSetIndex(item.tag, ofTableAt: store)
    }
    nextTag = max(nextTag, (items.last?.tag ?? 0) + 1)
  }

  /// Forgets the tables of `items`, which left the manager. Stack: 0.
  func forget(_ items: [ClusterItem], on stack: LuaStack) {
    guard !items.isEmpty else { return }
    stack.push(tables)
    defer { stack.pop() }
    let store = stack.absoluteIndex(-1)
    for item in items {
      if stack.rawGetIndex(item.tag, ofTableAt: store) == .table {
        stack.pushNil()
        stack.rawSet(ofTableAt: store)
      } else {
        stack.pop()
      }
      stack.pushNil()
      stack.rawSetIndex(item.tag, ofTableAt: store)
    }
  }
}

extension LuaAPI {
  /// The item tables of `manager` in this state, made empty on first use.
  static func itemTables(of manager: ClusterManager, bridge: LuaMapBridge, on stack: LuaStack) -> ClusterItemTables {
    let key = ObjectIdentifier(manager)
    if let tables = bridge.clusterItemTables[key] { return tables }
    stack.newTable()
    let tables = ClusterItemTables(on: stack)
    bridge.clusterItemTables[key] = tables
    return tables
  }
}
