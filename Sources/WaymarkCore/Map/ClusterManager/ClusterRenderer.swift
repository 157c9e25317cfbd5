/// What a marker the clustering rendered stands for, kept in its `userData` as
/// GMUDefaultClusterRenderer keeps the cluster or the item there.
package final class ClusterMarkerRole: Sendable {
  /// A cluster marker's cluster, nil for an item's marker.
  package let cluster: Cluster?
  /// An item's marker's item, nil for a cluster marker.
  package let item: ClusterItem?
  /// The label a cluster marker's circle shows (R63), nil for an item's marker.
  package let label: String?
  /// The colour of a cluster marker's circle (R63), nil for an item's marker.
  package let color: String?

  init(cluster: Cluster?, item: ClusterItem?, label: String? = nil, color: String? = nil) {
    self.cluster = cluster
    self.item = item
    self.label = label
    self.color = color
  }

  /// The role of a marker the clustering rendered, nil for any other marker.
  package static func of(_ marker: Marker) -> ClusterMarkerRole? { marker.userData as? ClusterMarkerRole }
}

extension ClusterManager {
  /// R64 (GMUDefaultClusterRenderer's renderClusters:): the markers of `newClusters` that are
  /// in view replace the old ones. Zooming in, a new marker starts where the old cluster that
  /// held one of its items stood and moves to its place; zooming out, an old marker in view
  /// moves to the new cluster holding its items and then goes. Records `clusters_rendered`
  /// when what is shown changed.
  func render(_ newClusters: [Cluster]) {
    guard let map else { return }
    let shownBefore = Set(markers.lazy.filter { $0.map === map }.compactMap(Shown.init))
    let zoom = map.camera.zoom
    let zoomingIn = zoom > previousZoom
    let animated = options.animate
    // Keyed by the items themselves, as Google's renderer keys its map (an id would be hashed).
    var oldClusterOfItem: [ObjectIdentifier: Cluster] = [:]
    var newClusterOfItem: [ObjectIdentifier: Cluster] = [:]
    if animated && zoomingIn {
      oldClusterOfItem.reserveCapacity(items.count)
      for cluster in clusters
      where rendersAsCluster(cluster, atZoom: zoom) || rendersAsCluster(cluster, atZoom: previousZoom) {
        for item in cluster.items { oldClusterOfItem[ObjectIdentifier(item)] = cluster }
      }
    } else if animated {
      for cluster in newClusters where rendersAsCluster(cluster, atZoom: zoom) {
        for item in cluster.items { newClusterOfItem[ObjectIdentifier(item)] = cluster }
      }
    }
    previousZoom = zoom
    let oldMarkers = markers
    clusters = newClusters
    places = ClusterPlaces(newClusters)
    markers = []
    renderedClusters = []
    addVisible(newClusters, from: animated && zoomingIn ? oldClusterOfItem : [:])
    let visible = map.projection.visibleRegion.bounds
    for marker in oldMarkers where marker.map === map {
      let target = ClusterMarkerRole.of(marker).flatMap { role in
        (role.cluster?.items ?? role.item.map { [$0] } ?? []).lazy.compactMap { newClusterOfItem[ObjectIdentifier($0)] }
          .first
      }
      guard animated, !zoomingIn, let target, visible.contains(marker.position) else {
        try? map.remove(marker)
        continue
      }
      try? map.animate(marker, to: target.position, duration: Self.animationDuration) { [weak map] _ in
        if let map, marker.map === map { try? map.remove(marker) }
      }
    }
    if Set(markers.compactMap(Shown.init)) != shownBefore { noteRendered(zoom: zoom) }
  }

  /// Renders the clusters that came into view since the last rendering (GMUDefaultClusterRenderer's
  /// update), asking only those near the view.
  func update() {
    guard let map else { return }
    let before = markers.count
    let nearby = places?.slots(near: map.projection.visibleRegion.bounds)
    addVisible(nearby.map { $0.map { clusters[$0] } } ?? clusters, from: [:])
    if markers.count != before { noteRendered(zoom: map.camera.zoom) }
  }

  /// Removes every marker the manager rendered.
  package func clearMarkers() {
    guard let map else { return }
    for marker in markers where marker.map === map { try? map.remove(marker) }
    markers = []
    renderedClusters = []
    clusters = []
    places = nil
  }

  /// Adds the markers of the clusters not yet rendered that are in view: a cluster marker
  /// when its position is, a small cluster's items when any of them is (or, animating, when
  /// the old cluster it comes from is).
  private func addVisible(_ candidates: [Cluster], from oldClusterOfItem: [ObjectIdentifier: Cluster]) {
    guard let map else { return }
    let zoom = map.camera.zoom
    let visible = map.projection.visibleRegion.bounds
    for cluster in candidates where !renderedClusters.contains(ObjectIdentifier(cluster)) {
      let asCluster = rendersAsCluster(cluster, atZoom: zoom)
      var shown = visible.contains(cluster.position)
      if !shown && (!asCluster || !oldClusterOfItem.isEmpty) {
        shown = cluster.items.contains { item in
          (!asCluster && visible.contains(item.position))
            || oldClusterOfItem[ObjectIdentifier(item)].map { visible.contains($0.position) } ?? false
        }
      }
      guard shown else { continue }
      renderedClusters.insert(ObjectIdentifier(cluster))
      if asCluster {
        let from = cluster.items.lazy.compactMap { oldClusterOfItem[ObjectIdentifier($0)] }.first?.position
        addMarker(for: cluster, item: nil, at: cluster.position, from: from)
      } else {
        for item in cluster.items {
          addMarker(for: nil, item: item, at: item.position, from: oldClusterOfItem[ObjectIdentifier(item)]?.position)
        }
      }
    }
  }

  private func addMarker(for cluster: Cluster?, item: ClusterItem?, at position: Coordinate, from: Coordinate?) {
    guard let map else { return }
    var options = MarkerOptions(position: from ?? position)
    if let cluster {
      let style = self.options.iconStyle
      let diameter = style.diameter(count: cluster.count)
      let label = style.label(count: cluster.count)
      options.icon = .image(name: "cluster \(label)", size: Size(width: diameter, height: diameter))
      options.groundAnchor = Point(x: 0.5, y: 0.5)
      options.userData = ClusterMarkerRole(
        cluster: cluster, item: nil, label: label, color: style.color(count: cluster.count))
    } else if let item {
      // An item's marker still moving into a cluster gives its id to the item's new marker.
      if let leaving = map.marker(id: item.id), ClusterMarkerRole.of(leaving)?.item != nil { try? map.remove(leaving) }
      options.id = map.marker(id: item.id) == nil ? item.id : nil
      options.title = item.title
      options.snippet = item.snippet
      options.userData = ClusterMarkerRole(cluster: nil, item: item)
    }
    options.zIndex = 1
    guard let marker = try? map.addMarker(options) else { return }
    map.emit(.willRenderClusterMarker(marker))
    if from != nil, marker.map === map { try? map.animate(marker, to: position, duration: Self.animationDuration) }
    map.emit(.didRenderClusterMarker(marker))
    markers.append(marker)
  }

  private func noteRendered(zoom: Double) {
    guard let map else { return }
    let shownClusters = markers.count { ClusterMarkerRole.of($0)?.cluster != nil }
    map.note(.clustersRendered) { record in
      record.extra = [
        TraceField("zoom", .number(zoom)), TraceField("clusters", .number(Double(shownClusters))),
        TraceField("markers", .number(Double(markers.count))),
      ]
    }
  }

  /// What a rendered marker shows: a cluster of `count` items at `position`, or the item with
  /// `id` at `position` (count 0). Equal for the markers of equal clusters of two clusterings.
  private struct Shown: Hashable {
    let id: String?
    let latitude: Double
    let longitude: Double
    let count: Int

    init?(_ marker: Marker) {
      guard let role = ClusterMarkerRole.of(marker) else { return nil }
      if let cluster = role.cluster {
        (id, count) = (nil, cluster.count)
        (latitude, longitude) = (cluster.position.latitude, cluster.position.longitude)
      } else if let item = role.item {
        (id, count) = (item.id, 0)
        (latitude, longitude) = (item.position.latitude, item.position.longitude)
      } else {
        return nil
      }
    }
  }
}
