/// A view its owner keeps changing after handing it to the map, as an app keeps changing a
/// `UIView` it gave Google's map: a custom info window or a marker's icon view (R34). Waymark
/// knows such a view only through `read`, which tells what it shows now; the map reads it
/// again at every frame while its marker tracks changes (`tracksInfoWindowChanges` for a
/// window, `tracksViewChanges` for an icon view) and draws what it reads. While the marker
/// does not track, the map draws what it read last: a snapshot.
///
/// The plugin host makes one from the Lua table a plugin returned or assigned ("the table is
/// the view"); Swift callers make one from any closure. Confined to the thread of its map:
/// the first thread that reads it owns it, checked in debug builds (`ThreadBound`).
public final class LiveView<Value: Equatable>: @unchecked Sendable {
  /// What the view shows now, given how many frames this read draws (for the owner's cost
  /// accounting: one read stands for every frame since the last); nil once the view is gone
  /// (its owner closed): the last drawing then stays for good. Throws, changing nothing, when
  /// the view no longer makes a valid value; the message names the field and value.
  public typealias Reader = (_ frames: Int) throws -> Value?

  private let reader: ThreadBound<Reader>

  /// A view read by `reader`.
  public init(_ reader: @escaping Reader) {
    self.reader = ThreadBound(reader)
  }

  /// What the view shows now, drawing `frames` frames; see ``Reader``.
  func read(frames: Int) throws -> Value? { try reader.value(frames) }
}

/// The map's live views and its frame count: which icon views it reads again at each frame,
/// and the last frame it drew (frames fall on multiples of 1 / frame rate, R27). A part of
/// ``MapView`` that makes no callbacks (MapView+LiveViews.swift runs it).
struct LiveViewRegistry {
  /// A marker's live icon view: the view and the problem last reported of it.
  struct IconView {
    let marker: Marker
    let view: LiveView<MarkerIconView>
    /// The message of the last failed read, so a view that stays broken is reported once.
    var lastProblem: String?
  }

  /// The live icon views, in the order they were given (the order they are read in).
  var iconViews: [IconView] = []
  /// The message of the shown window's last failed read, so a broken view is reported once.
  var windowProblem: String?
  /// The number of the last frame drawn: frames since it are drawn at the next step of time.
  var lastFrame = 0

  /// Whether no icon view is live.
  var isEmpty: Bool { iconViews.isEmpty }

  /// Makes `view` the live icon view of `marker` (nil: none), replacing any other.
  mutating func setIconView(_ view: LiveView<MarkerIconView>?, of marker: Marker) {
    iconViews.removeAll { $0.marker === marker }
    if let view { iconViews.append(IconView(marker: marker, view: view)) }
  }

  /// The live icon view of `marker`, if any.
  func iconView(of marker: Marker) -> LiveView<MarkerIconView>? {
    iconViews.first { $0.marker === marker }?.view
  }
}
