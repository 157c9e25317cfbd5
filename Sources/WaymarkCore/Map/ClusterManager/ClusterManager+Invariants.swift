extension ClusterManager {
  /// What `waymark fuzz` checks of a manager after every input (issue 34), nil when it holds:
  /// at the camera's clustering zoom the algorithm puts every item in exactly one cluster;
  /// every marker the manager shows stands for a cluster of its last rendering or an item of
  /// one, and no two stand for the same; and, unless a clustering is waiting for its
  /// debounce (R64), every cluster in view is shown.
  package func checkInvariants() -> String? {
    guard let map else { return nil }
    let zoom = conventions.clusteringZoom(map.camera.zoom)
    var clustered = Set<String>()
    for cluster in clusters(at: zoom) {
      for item in cluster.items where !clustered.insert(item.id).inserted {
        return "clusters: item \(item.id) is in two clusters at zoom \(formatNumber(zoom))"
      }
    }
    if clustered.count != items.count {
      return "clusters: \(items.count - clustered.count) item(s) are in no cluster at zoom \(formatNumber(zoom))"
    }
    var shown = Set<ObjectIdentifier>()
    let rendered = Set(clusters.map(ObjectIdentifier.init))
    let renderedItems = Set(clusters.flatMap { $0.items.map(ObjectIdentifier.init) })
    for marker in markers where marker.map === map {
      guard let role = ClusterMarkerRole.of(marker) else {
        return "clusters: marker \(marker.id) was rendered but stands for no cluster or item"
      }
      let subject = role.cluster.map(ObjectIdentifier.init) ?? role.item.map(ObjectIdentifier.init)
      guard let subject, rendered.contains(subject) || renderedItems.contains(subject) else {
        return "clusters: marker \(marker.id) stands for something the last rendering does not hold"
      }
      if !shown.insert(subject).inserted { return "clusters: two markers stand for what marker \(marker.id) does" }
    }
    guard !isClusteringPending else { return nil }
    let visible = map.projection.visibleRegion.bounds
    for cluster in clusters where visible.contains(cluster.position) {
      if !renderedClusters.contains(ObjectIdentifier(cluster)) {
        return "clusters: the cluster of \(cluster.count) at \(cluster.position) is in view but not shown"
      }
    }
    return nil
  }
}
