/// The info window the map shows (R9: at most one at a time).
public struct InfoWindow {
  /// The marker it belongs to (nil for a POI window under the web policy, R33).
  public let marker: Marker?
  /// The point of interest it belongs to (web policy only).
  public let pointOfInterest: PointOfInterest?
  /// Which of R7's three kinds it is.
  public var kind: InfoWindowKind { layout.kind }
  /// What the delegate returned for a custom window or contents; nil for the default window.
  public let content: InfoWindowContent?
  /// The laid-out window: its size, frame and node frames.
  package let layout: InfoWindowLayout

  /// The kind's snake_case name as scripts and traces spell it: window, contents, default.
  package var kindName: String {
    switch kind {
    case .window: "window"
    case .contents: "contents"
    case .default: "default"
    }
  }
}
