/// The info window the map shows (R9: at most one at a time).
///
/// A window is one reference to its parts, which never change once it is made: the map
/// hands it around (selection, showing, hiding, every tap's R16 check) for a retain, where
/// copying its layout inline cost thousands of instructions a tap.
public struct InfoWindow {
  /// What a window is made of, shared by its copies.
  private final class Parts {
    let marker: Marker?
    let pointOfInterest: PointOfInterest?
    let content: InfoWindowContent?
    let layout: InfoWindowLayout

    init(marker: Marker?, pointOfInterest: PointOfInterest?, content: InfoWindowContent?, layout: InfoWindowLayout) {
      self.marker = marker
      self.pointOfInterest = pointOfInterest
      self.content = content
      self.layout = layout
    }
  }

  private let parts: Parts

  /// A window of `marker` (or of a point of interest under the web policy, R33) showing
  /// `layout`, laid out from `content` (nil for the default window).
  init(marker: Marker?, pointOfInterest: PointOfInterest?, content: InfoWindowContent?, layout: InfoWindowLayout) {
    parts = Parts(marker: marker, pointOfInterest: pointOfInterest, content: content, layout: layout)
  }

  /// The marker it belongs to (nil for a POI window under the web policy, R33).
  public var marker: Marker? { parts.marker }
  /// The point of interest it belongs to (web policy only).
  public var pointOfInterest: PointOfInterest? { parts.pointOfInterest }
  /// Which of R7's three kinds it is.
  public var kind: InfoWindowKind { parts.layout.kind }
  /// What the delegate returned for a custom window or contents; nil for the default window.
  public var content: InfoWindowContent? { parts.content }
  /// The laid-out window: its size, frame and node frames.
  package var layout: InfoWindowLayout { parts.layout }

  /// The kind's snake_case name as scripts and traces spell it: window, contents, default.
  package var kindName: String {
    switch kind {
    case .window: "window"
    case .contents: "contents"
    case .default: "default"
    }
  }
}
