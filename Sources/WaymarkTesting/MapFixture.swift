import WaymarkCore

/// The sample coordinates of Google's iOS samples (docs/semantics.md, section 9).
public enum Places {
  /// Sydney.
  public static let sydney = Coordinate(latitude: -33.8683, longitude: 151.2086)
  /// Melbourne.
  public static let melbourne = Coordinate(latitude: -37.81969, longitude: 144.966085)
  /// Brisbane.
  public static let brisbane = Coordinate(latitude: -27.4710107, longitude: 153.0234489)
}

/// A map with a ``RecordingDelegate`` attached and kept alive (the map holds its delegate
/// weakly): the starting point of a test, like swift-nio's embedded channel.
public struct MapFixture {
  /// The map.
  public let map: MapView
  /// Its delegate, which records every callback.
  public let delegate = RecordingDelegate()

  /// A map looking at `target` (Melbourne by default) under `policy`.
  public init(
    _ target: Coordinate = Places.melbourne, zoom: Double = 4, bearing: Double = 0, tilt: Double = 0,
    policy: BehaviorPolicy = .ios
  ) throws {
    map = try MapView(camera: CameraPosition(target: target, zoom: zoom, bearing: bearing, tilt: tilt), policy: policy)
    map.delegate = delegate
  }

  /// Adds a marker with an id (and a title and snippet, if given).
  @discardableResult
  public func marker(_ id: String, at position: Coordinate, title: String? = nil, snippet: String? = nil) throws
    -> Marker
  {
    try map.addMarker(MarkerOptions(position: position, id: id, title: title, snippet: snippet))
  }

  /// Settles the map and forgets what the delegate heard so far (the first tiles).
  public func quiet() throws {
    try map.settle()
    delegate.calls.removeAll()
  }
}

/// Info-window content of one line of text.
public func text(_ string: String) -> InfoWindowContent {
  InfoWindowContent(.text(TextNode(string)))
}
