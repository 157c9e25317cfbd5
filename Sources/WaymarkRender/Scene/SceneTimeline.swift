/// One map's scene over a run, as the HTML replay plays it: keyframes of the whole state and
/// the events that change it between them, on virtual time. The state at time t is the last
/// keyframe at or before it with the following events at or before t applied.
package struct SceneTimeline: Codable, Equatable, Sendable {
  /// The version of the scene's JSON form (``Scene/currentVersion``).
  package var version = Scene.currentVersion
  /// "map N (policy)".
  package var title: String
  /// The run's trace records that this map made.
  package var records: SceneRecords
  /// The virtual time the run reached with the map.
  package var end: Double
  /// What states and events refer to by number.
  package var library: SceneLibrary
  /// The whole state before event number `at`, the first before any event.
  package var keyframes: [SceneKeyframe]
  /// The changes, in order of time.
  package var events: [SceneEvent]
}

/// A range of the run's trace records.
package struct SceneRecords: Codable, Equatable, Sendable {
  /// The index of the first record, and of the one past the last.
  package var from, to: Int
}

/// The state before one event.
package struct SceneKeyframe: Codable, Equatable, Sendable {
  /// How many events came before it.
  package var at: Int
  /// The state then.
  package var state: SceneState
}

/// One change of a scene at a virtual time: it sets the fields it has, so applying it twice
/// is harmless. A touch and a moment set nothing.
package struct SceneEvent: Codable, Equatable, Sendable {
  /// A moment the replay stops at when seeking to its time.
  package enum Moment: String, Codable, Sendable {
    /// The camera came to rest (`idle_at_camera_position`).
    case idle
    /// A picture was taken (`map:snapshot()`).
    case picture
  }

  /// Virtual seconds.
  package var t: Double
  /// The camera moved: every frame of an animation or gesture.
  package var camera: SceneCamera?
  /// The view's size or padding changed.
  package var view: SceneView?
  /// A marker was added or changed: it replaces the marker of its number.
  package var marker: SceneMarker?
  /// A marker moved.
  package var moved: SceneMove?
  /// The number of a marker removed.
  package var removed: Int?
  /// The selection or the shown window changed.
  package var selection: SceneSelection?
  /// The overlays changed: the set now drawn.
  package var overlays: Int?
  /// The points of interest or my location changed: the set now drawn.
  package var places: Int?
  /// A finger touched the screen (the page draws a ripple).
  package var touch: SceneTouch?
  /// A moment pictures show.
  package var moment: Moment?

  /// An event at `t` that sets nothing yet.
  package init(t: Double) { self.t = t }
}

/// A marker's new position.
package struct SceneMove: Codable, Equatable, Sendable {
  /// The marker's number.
  package var n: Int
  /// Where it is now.
  package var lat, lng: Double
}

/// The selected marker and the shown window, each by number (absent: none).
package struct SceneSelection: Codable, Equatable, Sendable {
  /// The selected marker's number.
  package var marker: Int?
  /// The shown window, in ``SceneLibrary/windows``.
  package var window: Int?
}

/// A touch on the screen.
package struct SceneTouch: Codable, Equatable, Sendable {
  /// tap, long_press, double_tap or drag.
  package var kind: String
  /// Where, in screen points.
  package var x, y: Double
}
