/// What a ``ReplayRecorder`` kept of a run: one scene per map, each a compact timeline.
public struct ReplayRecording: Sendable {
  /// The maps of the run, in the order they were made.
  public internal(set) var scenes: [ReplayScene] = []

  /// An empty recording.
  public init() {}
}

/// One map's timeline: keyframes of its whole drawn state and the changes between them,
/// on virtual time, with the records of the run's trace that belong to it.
public struct ReplayScene: Sendable {
  /// The timeline, as the replay page reads it.
  package let timeline: SceneTimeline

  /// The scene as a JSON object, the format the replay page reads (docs/pictures.md).
  public var json: String { JSONWriter.json(timeline) }
  /// The records of the run's trace that this map made: the indexes of its first and
  /// past its last.
  public var traceRange: Range<Int> { timeline.records.from..<timeline.records.to }
  /// The virtual time the map had reached when the run was done with it.
  public var duration: Double { timeline.end }
}
