/// The info window the map shows (R9: at most one at a time).
///
/// A window is one reference to its parts, which never change while anyone but the map
/// holds them: the map hands it around (selection, showing, hiding, every tap's R16 check)
/// for a retain, where copying its layout inline cost thousands of instructions a tap. A
/// hidden window that nobody else holds becomes the map's spare (`recycle()`), whose
/// storage the next default window is made in (`defaultWindow(of:reusing:)`).
public struct InfoWindow {
  /// What a window is made of, shared by its copies.
  private final class Parts {
    var marker: Marker?
    var pointOfInterest: PointOfInterest?
    var content: InfoWindowContent?
    var layout: InfoWindowLayout
    var view: LiveView<InfoWindowContent>?

    init(
      marker: Marker?, pointOfInterest: PointOfInterest?, content: InfoWindowContent?, layout: InfoWindowLayout,
      view: LiveView<InfoWindowContent>?
    ) {
      self.marker = marker
      self.pointOfInterest = pointOfInterest
      self.content = content
      self.layout = layout
      self.view = view
    }
  }

  private var parts: Parts

  /// A window of `marker` (or of a point of interest under the web policy, R33) showing
  /// `layout`, laid out from `content` (nil for the default window), which `view` (if any)
  /// keeps current while the marker tracks info window changes (R34).
  init(
    marker: Marker?, pointOfInterest: PointOfInterest?, content: InfoWindowContent?, layout: InfoWindowLayout,
    view: LiveView<InfoWindowContent>? = nil
  ) {
    parts = Parts(marker: marker, pointOfInterest: pointOfInterest, content: content, layout: layout, view: view)
  }

  /// The default window of `marker` (R7), nil if its title and snippet are both blank; made
  /// in `spare`'s storage when there is a spare (which it takes), saving the window's
  /// allocation, the deallocation of the hidden one, and the allocation of a one-text
  /// layout's lines (their buffer is refilled).
  static func defaultWindow(of marker: Marker, reusing spare: inout InfoWindow?) -> InfoWindow? {
    guard let window = spare.take() else {
      guard let layout = InfoWindowLayout.defaultWindow(title: marker.title, snippet: marker.snippet) else {
        return nil
      }
      return InfoWindow(marker: marker, pointOfInterest: nil, content: nil, layout: layout)
    }
    let parts = window.parts
    // Swapped out, not copied: the lines buffer is then held by `element` alone.
    var element = LaidOutElement.stack(.vertical)
    swap(&element, &parts.layout.content.element)
    var lines: [LaidOutLine]?
    if case .text(let text) = consume element { lines = text.lines }
    // Each layout written into the parts where it is made: handing it on through optionals
    // copied its 200 bytes several times.
    switch DefaultWindowLayout.standard.layout(title: marker.title, snippet: marker.snippet, reusing: lines.take()) {
    case let layout??: parts.layout = layout
    case .some(nil):
      spare = window
      return nil
    case nil:
      guard
        let layout = InfoWindowLayout.generalDefaultWindow(
          title: marker.title, snippet: marker.snippet, metrics: .standard)
      else {
        spare = window
        return nil
      }
      parts.layout = layout
    }
    parts.marker = marker
    return window
  }

  /// Makes this hidden window a spare for the map if nobody else holds it (true): its
  /// marker, place and content let go, the layout's buffers kept for the next default
  /// window. False, changing nothing, if it is shared.
  mutating func recycle() -> Bool {
    guard isKnownUniquelyReferenced(&parts) else { return false }
    parts.marker = nil
    parts.pointOfInterest = nil
    parts.content = nil
    parts.view = nil
    return true
  }

  /// The marker it belongs to (nil for a POI window under the web policy, R33).
  public var marker: Marker? { parts.marker }
  /// The point of interest it belongs to (web policy only).
  public var pointOfInterest: PointOfInterest? { parts.pointOfInterest }
  /// Which of R7's three kinds it is.
  public var kind: InfoWindowKind { parts.layout.kind }
  /// What the delegate returned for a custom window or contents; nil for the default window.
  public var content: InfoWindowContent? { parts.content }
  /// The live view the content was read from, re-read at each frame while the marker tracks
  /// info window changes (R34); nil for a snapshot (the default window, a Swift delegate's).
  public var view: LiveView<InfoWindowContent>? { parts.view }
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
