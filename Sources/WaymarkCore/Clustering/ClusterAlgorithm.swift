/// How a cluster manager groups its items (the `algorithm` key of `map:clusters{}`).
package enum ClusterAlgorithm: String, Sendable, CaseIterable {
  /// GMUNonHierarchicalDistanceBasedAlgorithm, the default (R60).
  case distance
  /// GMUGridBasedClusterAlgorithm (R61).
  case grid
}

/// Where iOS's and Android's clustering libraries differ (R65): the zoom a manager clusters
/// at, and how far the distance algorithm searches around an item.
package struct ClusteringConventions: Sendable, Hashable {
  /// True to cluster at the camera zoom truncated (android-maps-utils), false to round it to
  /// the nearest integer (GMUClusterManager).
  package var truncatesZoom: Bool
  /// The half side of the distance algorithm's search square, as a fraction of `distance`:
  /// 1 for GMUNonHierarchicalDistanceBasedAlgorithm, 0.5 for android-maps-utils' algorithm.
  package var searchFraction: Double
  /// True to count the grid's rows from the south, as GMUGridBasedClusterAlgorithm does on
  /// GMSMapPoint's y, which grows north: an item on the line between two rows is in the
  /// northern one. False to count them from the north (android-maps-utils, whose y grows
  /// south): it is in the southern one.
  package var gridRowsFromSouth: Bool

  /// Creates conventions.
  package init(truncatesZoom: Bool, searchFraction: Double, gridRowsFromSouth: Bool) {
    self.truncatesZoom = truncatesZoom
    self.searchFraction = searchFraction
    self.gridRowsFromSouth = gridRowsFromSouth
  }

  /// google-maps-ios-utils': the zoom rounded, a square of ±distance, rows from the south.
  package static let ios = ClusteringConventions(truncatesZoom: false, searchFraction: 1, gridRowsFromSouth: true)
  /// android-maps-utils': the zoom truncated, a square of ±distance/2, rows from the north.
  package static let android = ClusteringConventions(
    truncatesZoom: true, searchFraction: 0.5, gridRowsFromSouth: false)

  /// The integral zoom a manager clusters at when the camera is at `zoom`.
  package func clusteringZoom(_ zoom: Double) -> Double {
    truncatesZoom ? zoom.rounded(.towardZero) : (zoom + 0.5).rounded(.down)
  }
}
