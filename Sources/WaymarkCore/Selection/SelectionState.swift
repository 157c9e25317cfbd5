/// The selected marker and the shown info window (R9-R13), and the changes waiting while a
/// window is being resolved (R13). A part of ``MapView``; the map runs the callbacks
/// (MapView+Selection.swift).
///
/// Invariants (``checkInvariants()``, between inputs): at most one window is shown (R9,
/// by construction); a marker's window belongs to the selected marker; the spare window
/// holds no marker, place or content; changes wait only while a window is being resolved,
/// and are applied, in order, when it is.
struct SelectionState {
  /// The selected marker, whose window (if any) is shown.
  var selectedMarker: Marker?
  /// The shown info window (R9: at most one).
  var infoWindow: InfoWindow?
  /// A hidden window nobody else holds, whose storage the next default window reuses
  /// (``InfoWindow/defaultWindow(of:reusing:)``); never shown, and holding no marker.
  var spareWindow: InfoWindow?
  /// Whether marker_info_window or marker_info_contents is being asked (R13).
  private(set) var isResolving = false
  /// Changes made during a resolution, in order (R13).
  private var waiting: [() -> Void] = []

  /// Starts a resolution: changes made until ``endResolution()`` wait.
  mutating func beginResolution() {
    precondition(!isResolving, "info-window resolutions do not nest")
    isResolving = true
  }

  /// Ends a resolution; returns the changes that waited, to apply in order.
  mutating func endResolution() -> [() -> Void] {
    isResolving = false
    defer { waiting.removeAll() }
    return waiting
  }

  /// Keeps `change` for the end of the resolution if one is running (R13); false otherwise.
  mutating func deferIfResolving(_ change: @escaping () -> Void) -> Bool {
    guard isResolving else { return false }
    waiting.append(change)
    return true
  }

  /// Describes the first broken invariant, or nil when all hold (tests).
  func checkInvariants() -> String? {
    if let marker = infoWindow?.marker, marker !== selectedMarker {
      return "the window of \(marker.id) is shown but \(selectedMarker?.id ?? "nothing") is selected"
    }
    if let spare = spareWindow, spare.marker != nil || spare.pointOfInterest != nil || spare.content != nil {
      return "the spare window still holds what it was shown for"
    }
    if !isResolving && !waiting.isEmpty { return "\(waiting.count) change(s) wait with no resolution running" }
    return nil
  }
}
