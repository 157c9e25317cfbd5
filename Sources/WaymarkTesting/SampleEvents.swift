import WaymarkCore

/// One event of each callback, with arguments of every kind: for tests that must see every
/// callback go through a delegate (the switch is exhaustive, so a new callback asks for its
/// sample here).
public enum SampleEvents {
  /// An event of `callback` about `marker` and `overlay` where it has one.
  public static func event(of callback: DelegateCallback, marker: Marker, overlay: Overlay) -> DelegateEvent {
    let here = Coordinate(latitude: 1, longitude: 2)
    let camera = CameraPosition(target: here, zoom: 3)
    let feature = Feature(placeID: "f1", boundary: [])
    let item = ClusterItem(id: "i1", position: here, title: "One")
    let item2 = ClusterItem(id: "i2", position: here)
    switch callback {
    case .willMove: return .willMove(gesture: true)
    case .didChangeCameraPosition: return .didChangeCameraPosition(camera)
    case .idleAtCameraPosition: return .idleAtCameraPosition(camera)
    case .didTapAtCoordinate: return .didTapAtCoordinate(here)
    case .didLongPressAtCoordinate: return .didLongPressAtCoordinate(here)
    case .didTapMarker: return .didTapMarker(marker)
    case .didTapInfoWindow: return .didTapInfoWindow(marker)
    case .didLongPressInfoWindow: return .didLongPressInfoWindow(marker)
    case .didTapOverlay: return .didTapOverlay(overlay)
    case .didTapPOI: return .didTapPOI(PointOfInterest(placeID: "p1", name: "Park", location: here))
    case .markerInfoWindow: return .markerInfoWindow(marker)
    case .markerInfoContents: return .markerInfoContents(marker)
    case .didCloseInfoWindow: return .didCloseInfoWindow(marker)
    case .didBeginDraggingMarker: return .didBeginDraggingMarker(marker)
    case .didDragMarker: return .didDragMarker(marker)
    case .didEndDraggingMarker: return .didEndDraggingMarker(marker)
    case .didTapMyLocationButton: return .didTapMyLocationButton
    case .didTapMyLocation: return .didTapMyLocation(here)
    case .didStartTileRendering: return .didStartTileRendering
    case .didFinishTileRendering: return .didFinishTileRendering
    case .snapshotReady: return .snapshotReady
    case .didChangeMapCapabilities: return .didChangeMapCapabilities([.advancedMarkers])
    case .didTapFeatures:
      return .didTapFeatures([feature], layer: FeatureLayer(name: "LOCALITY", features: [feature]), location: here)
    case .didTapCluster: return .didTapCluster(Cluster(position: here, items: [item, item2]))
    case .didTapClusterItem: return .didTapClusterItem(item)
    case .willRenderClusterMarker: return .willRenderClusterMarker(marker)
    case .didRenderClusterMarker: return .didRenderClusterMarker(marker)
    }
  }
}
