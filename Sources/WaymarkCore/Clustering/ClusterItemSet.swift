/// A cluster manager's items in the order they were added, with their world points in a
/// spatial index, so that the distance algorithm searches around an item instead of scanning.
///
/// Slots are in order of addition (an id added again goes to the end, as a marker does); a
/// removed item leaves a gap, and the slots are compacted once gaps outnumber the items.
package struct ClusterItemSet: Sendable {
  /// The items by slot, nil where one was removed.
  private(set) var slots: [ClusterItem?] = []
  /// The world point of each slot (left in place for a gap).
  private(set) var points: [WorldPoint] = []
  private var slotByID: [String: Int32] = [:]
  private var index = SpatialIndex()

  /// Creates an empty set.
  package init() {}

  /// How many items the set holds.
  package var count: Int { slotByID.count }

  /// The items in the order they were added.
  package var items: [ClusterItem] { slots.compactMap { $0 } }

  /// The item with this id, if any.
  package func item(id: String) -> ClusterItem? {
    slotByID[id].flatMap { slots[Int($0)] }
  }

  /// Adds `item` after every other; an item with the same id leaves first, and is returned.
  @discardableResult
  package mutating func add(_ item: ClusterItem) -> ClusterItem? {
    let replaced = remove(id: item.id)
    let slot = Int32(slots.count)
    let point = Mercator.worldPoint(item.position)
    slots.append(item)
    points.append(point)
    slotByID[item.id] = slot
    index.insert(slot, x: point.x, y: point.y)
    return replaced
  }

  /// Removes the item with this id and returns it; nil if there is none.
  @discardableResult
  package mutating func remove(id: String) -> ClusterItem? {
    guard let slot = slotByID.removeValue(forKey: id) else { return nil }
    let item = slots[Int(slot)]
    let point = points[Int(slot)]
    slots[Int(slot)] = nil
    index.remove(slot, x: point.x, y: point.y)
    if slots.count - slotByID.count > slotByID.count { compact() }
    return item
  }

  /// Removes every item.
  package mutating func removeAll() {
    self = ClusterItemSet()
  }

  private mutating func compact() {
    let kept = items
    self = ClusterItemSet()
    for item in kept { add(item) }
  }

  /// Calls `body` with the slot of every item whose point is within the square of half side
  /// `radius` (world units) around `center`, edges included. The world does not wrap here, as
  /// it does not in GQTPointQuadTree: an item across the antimeridian is not near.
  mutating func forEachSlot(near center: WorldPoint, radius: Double, _ body: (Int32, WorldPoint) -> Void) {
    let points = self.points
    index.forEach(inMinX: center.x - radius, minY: center.y - radius, maxX: center.x + radius, maxY: center.y + radius)
    { slot in
      let point = points[Int(slot)]
      if abs(point.x - center.x) <= radius && abs(point.y - center.y) <= radius { body(slot, point) }
    }
  }
}
