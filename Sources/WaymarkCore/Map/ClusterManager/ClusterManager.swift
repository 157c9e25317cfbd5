/// The settings of a cluster manager (`map:clusters{...}`), each with Google's default.
package struct ClusterOptions: Sendable, Equatable {
  /// How items are grouped (R60, R61).
  package var algorithm: ClusterAlgorithm = .distance
  /// The search square's half side or the grid's cell side, in points.
  package var distance: Double = 100
  /// The fewest items a cluster marker stands for; smaller clusters show their items (R64).
  package var minClusterSize = 4
  /// Above this raw camera zoom every cluster shows its items (R64).
  package var maxClusterZoom: Double = 20
  /// Labels, colours and sizes of cluster markers (R63).
  package var iconStyle = try! ClusterIconStyle()
  /// Whether splits and merges move markers on the virtual clock (R64).
  package var animate = true

  /// Google's defaults.
  package init() {}
}

/// A cluster manager (GMUClusterManager with GMUDefaultClusterRenderer): items, the
/// algorithm's clusters at the camera's rounded zoom, and the markers that show them.
///
/// It observes its map: when the rounded zoom changes it clusters again 0.2 s of virtual time
/// after the last such change (a later one restarts the wait); any other camera change only
/// renders what came into view (R64). The caller keeps the manager alive; it holds its map
/// weakly, and its markers stay on the map until ``clearMarkers()``.
package final class ClusterManager: MapObserver {
  /// GMUClusterManager's wait before clustering after a zoom change, in seconds.
  package static let debounce = 0.2
  /// GMUDefaultClusterRenderer's animation of splits and merges, in seconds.
  package static let animationDuration = 0.5

  /// The map the clusters are drawn on.
  package private(set) weak var map: MapView?
  /// The settings.
  package let options: ClusterOptions
  /// iOS's or Android's rounding and search, from the map's policy when it was made (R65).
  package let conventions: ClusteringConventions
  /// The items, in the order they were added.
  package internal(set) var items = ClusterItemSet()

  /// The clusters last rendered.
  package internal(set) var clusters: [Cluster] = []
  /// The markers shown now, in the order they were rendered.
  package internal(set) var markers: [Marker] = []
  var renderedClusters: Set<ObjectIdentifier> = []
  /// Where the clusters last rendered stand, for the renders of camera moves.
  var places: ClusterPlaces?
  var renderedZoom: Double
  var previousZoom: Double
  private var clusterRequest: VirtualClock.TaskID?

  /// Whether a clustering waits for its debounce (R64).
  var isClusteringPending: Bool { clusterRequest != nil }

  /// A manager of `map` with `options`; it renders nothing until ``cluster()``.
  package init(map: MapView, options: ClusterOptions) {
    self.map = map
    self.options = options
    conventions = map.policy.clustering
    renderedZoom = map.camera.zoom
    previousZoom = map.camera.zoom
    map.addObserver(self)
  }

  /// Adds items after the others (an id already there is replaced, R62) and returns the items
  /// they replaced; shown at the next clustering.
  @discardableResult
  package func add(_ newItems: [ClusterItem]) -> [ClusterItem] {
    newItems.compactMap { items.add($0) }
  }

  /// Removes the item with this id and returns it; nil if there is none. Shown at the next
  /// clustering.
  @discardableResult
  package func remove(id: String) -> ClusterItem? { items.remove(id: id) }

  /// Removes every item and clusters again after the wait, as GMUClusterManager's clearItems.
  package func clear() {
    items.removeAll()
    requestCluster()
  }

  /// The algorithm's clusters at `zoom`, as given.
  package func clusters(at zoom: Double) -> [Cluster] {
    items.clusters(
      at: zoom, algorithm: options.algorithm, distance: options.distance, conventions: conventions)
  }

  /// ``clusters(at:)`` as a table of the slots of ``items``, with no object a cluster.
  package func clusterTable(at zoom: Double) -> ClusterTable {
    items.clusterTable(
      at: zoom, algorithm: options.algorithm, distance: options.distance, conventions: conventions)
  }

  /// Clusters at the camera's rounded zoom and renders the result now.
  package func cluster() {
    guard let map else { return }
    if let clusterRequest { map.clock.cancel(clusterRequest) }
    clusterRequest = nil
    render(clusters(at: conventions.clusteringZoom(map.camera.zoom)))
    renderedZoom = map.camera.zoom
  }

  /// Whether a cluster shows as one marker at a raw camera zoom (R64).
  package func rendersAsCluster(_ cluster: Cluster, atZoom zoom: Double) -> Bool {
    cluster.count >= options.minClusterSize && zoom <= options.maxClusterZoom
  }

  private func requestCluster() {
    guard let map else { return }
    if let clusterRequest { map.clock.cancel(clusterRequest) }
    clusterRequest = map.clock.schedule(at: map.clock.now + Self.debounce) { [weak self] in
      self?.clusterRequest = nil
      self?.cluster()
    }
  }

  /// Follows the camera (R64): a new rounded zoom asks for clustering, any other move renders
  /// what came into view.
  package func mapView(_ mapView: MapView, didChange change: MapChange) {
    switch change {
    case .cameraMoved, .viewChanged:
      if conventions.clusteringZoom(mapView.camera.zoom) != conventions.clusteringZoom(renderedZoom) {
        requestCluster()
      } else {
        update()
      }
    default: break
    }
  }
}
