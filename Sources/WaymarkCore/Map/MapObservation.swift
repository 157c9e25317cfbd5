/// A change of what a map shows, told to its observers as it happens (renderers, replays,
/// live views). Observers read the new state through the map's API; a change says only what
/// moved. Nothing here touches the trace: observing a map never changes its records.
public enum MapChange {
  /// A marker was put on the map (R2).
  case markerAdded(Marker)
  /// A marker left the map (R2): removed, or cleared with every other.
  case markerRemoved(Marker)
  /// A marker's position changed by a drag or an animation (R18, S3).
  case markerMoved(Marker)
  /// A marker's properties changed through ``Marker/update(_:)`` (its position among them).
  case markerChanged(Marker)
  /// An overlay was added, removed or changed (R15).
  case overlaysChanged
  /// The points of interest, the my-location dot or its location changed (R17, R32).
  case placesChanged
  /// The selected marker or the shown info window changed (R9-R16).
  case selectionChanged
  /// The camera moved: one frame of an animation or gesture, or an instant move (R23-R27).
  case cameraMoved
  /// The camera came to rest: told after idle_at_camera_position's callback (R23).
  case cameraIdle
  /// The view's size, padding or settings changed (R29; the compass is drawn, R69).
  case viewChanged
  /// A finger touched the map at a screen point, before the map resolved what it hit.
  case input(MapInput)
}

/// A touch on the map: what kind, and where on the screen.
public struct MapInput: Hashable, Sendable {
  /// The kinds of touch that land on a point.
  public enum Kind: String, Hashable, Sendable {
    /// A tap (R4-R17).
    case tap
    /// A long press (R16, R18, R19).
    case longPress = "long_press"
    /// A double tap: zoom in about the point (R25).
    case doubleTap = "double_tap"
    /// The start of a marker drag, on the marker's icon (R18).
    case drag
  }

  /// What kind of touch.
  public var kind: Kind
  /// Where, in screen points.
  public var point: Point

  /// Creates an input.
  package init(kind: Kind, point: Point) {
    self.kind = kind
    self.point = point
  }
}

/// Hears every ``MapChange`` of the maps it observes. Held weakly by the map.
public protocol MapObserver: AnyObject {
  /// Called synchronously after the change, while the map is in its new state.
  func mapView(_ mapView: MapView, didChange change: MapChange)
}

/// A weak reference to an observer.
struct WeakObserver {
  weak var observer: MapObserver?
}
