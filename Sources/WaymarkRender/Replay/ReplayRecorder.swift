import WaymarkCore

/// Records what maps show over a run, for the HTML replay: a `MapObserver` that writes a
/// compact timeline of keyframes and changes, without touching the trace.
///
/// ```swift
/// let recorder = ReplayRecorder()
/// recorder.begin(map, traceStart: map.trace.records.count)
/// // ... drive the map ...
/// recorder.end(traceEnd: map.trace.records.count)
/// let html = ReplayPage.html(recorder.recording, records: map.trace.records, title: "demo")
/// ```
///
/// Each change becomes one event of the map's scene (`SceneEvent`, with named fields): the
/// camera of every frame, markers added, moved, changed and removed, the selection and
/// window, overlays, places, the view, and every touch with its point. Markers' sprites,
/// windows, overlays and places are drawn once into the scene's library, by the same
/// `SceneBuilder` that makes a picture's scene. A keyframe (the whole state) starts each
/// scene and follows once the events since the last one number four per marker it held,
/// plus 256, so that seeking costs a bounded replay of events while keyframes stay a fraction
/// of the file.
public final class ReplayRecorder: MapObserver {
  private var scenes: [ReplayScene] = []
  private var current: SceneRecorder?

  /// Creates a recorder with nothing recorded.
  public init() {}

  /// Starts a scene for `map` (ending the current one) and observes it; `traceStart` is the
  /// index in the trace of the first record that belongs to it.
  public func begin(_ map: MapView, traceStart: Int) {
    if let current { end(traceEnd: current.traceStart) }
    map.addObserver(self)
    current = SceneRecorder(map: map, number: scenes.count + 1, traceStart: traceStart)
  }

  /// Ends the current scene; `traceEnd` is the index past its last record in the trace.
  public func end(traceEnd: Int) {
    guard let scene = current else { return }
    current = nil
    if let map = scene.map { map.removeObserver(self) }
    scenes.append(scene.finish(traceEnd: traceEnd))
  }

  /// The scenes ended so far.
  public var recording: ReplayRecording {
    var recording = ReplayRecording()
    recording.scenes = scenes
    return recording
  }

  /// Marks this instant of `map` as one a picture was taken of (`map:snapshot()`): seeking
  /// the replay to its time shows the map as it is now, as seeking to an idle camera's time
  /// shows the map as it was when the camera came to rest, even if more happened at that
  /// same virtual time afterwards.
  public func markPicture(of map: MapView) {
    guard let scene = current, scene.map === map else { return }
    scene.markPicture()
  }

  /// Records one change of the current scene's map.
  public func mapView(_ mapView: MapView, didChange change: MapChange) {
    guard let scene = current, scene.map === mapView else { return }
    scene.record(change)
  }
}
