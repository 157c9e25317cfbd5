/// A point a cluster manager groups (GMUClusterItem): an id, a position, and what the marker
/// that stands for it alone copies (title and snippet, as GMUDefaultClusterRenderer does).
///
/// A class: a cluster, a rendered marker and a script hold the same item, as Google's
/// renderer holds the caller's object.
public final class ClusterItem: Sendable {
  /// Unique within its cluster manager; the id of the marker that shows it alone.
  public let id: String
  /// Where the item is.
  public let position: Coordinate
  /// Copied to its marker's title.
  public let title: String?
  /// Copied to its marker's snippet.
  public let snippet: String?
  /// What the caller keeps with the item (the Lua bridge: a plain-data copy of its
  /// `user_data`, seen by every plugin); never read by the core. Unchecked for sending, as a
  /// marker's `userData` is: it is read where the items are, on the map's thread.
  nonisolated(unsafe) package let userData: AnyObject?
  /// A number the caller attached to find its own copy of the item again (the Lua bridge:
  /// where it keeps the item's table); never read by the core.
  package let tag: Int

  /// Creates an item.
  package init(
    id: String, position: Coordinate, title: String? = nil, snippet: String? = nil, userData: AnyObject? = nil,
    tag: Int = 0
  ) {
    self.id = id
    self.position = position
    self.title = title
    self.snippet = snippet
    self.userData = userData
    self.tag = tag
  }

  /// Throws unless the id is a name (not empty, within the limit of names), the position is
  /// on the globe and the texts are within their limits, as a marker's (R1, R62); `field`
  /// names the item in the message.
  package func validate(_ field: String) throws(MapError) {
    if id.isEmpty { throw .invalidValue(field: "\(field).id", value: "\"\"", reason: "is empty") }
    try TextLimits.check(id, atMost: TextLimits.name, "\(field).id")
    _ = try position.validated("\(field).position")
    try TextLimits.check(title, atMost: TextLimits.text, "\(field).title")
    try TextLimits.check(snippet, atMost: TextLimits.text, "\(field).snippet")
  }
}

/// A group of items an algorithm made at one zoom (GMUStaticCluster): where its marker stands
/// and its items in the order they were added to the manager.
public final class Cluster: Sendable {
  /// Where the cluster's marker stands: the first item's position for `distance`, the cell's
  /// centre for `grid` (R60, R61).
  public let position: Coordinate
  /// The items, in the order they were added (never empty).
  public let items: [ClusterItem]

  /// How many items the cluster holds.
  public var count: Int { items.count }

  /// Creates a cluster.
  package init(position: Coordinate, items: [ClusterItem]) {
    self.position = position
    self.items = items
  }
}
