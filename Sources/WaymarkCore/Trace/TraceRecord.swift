/// A value in a trace record: what JSON can hold, kept deterministic.
public enum TraceValue: Hashable, Sendable {
  /// JSON null.
  case null
  /// true or false.
  case bool(Bool)
  /// A number, printed rounded to six decimals.
  case number(Double)
  /// A string.
  case string(String)
  /// An ordered list.
  case list([TraceValue])
  /// An object with its keys in the given order.
  case object([TraceField])
}

/// One key and value of a trace object, in order.
public struct TraceField: Hashable, Sendable {
  /// The field's name in the JSON object (`marker`, `place_id`).
  public var key: String
  /// What the field holds.
  public var value: TraceValue
  /// A field named `key` holding `value`.
  package init(_ key: String, _ value: TraceValue) {
    self.key = key
    self.value = value
  }
}

/// One line of the trace (docs/trace-format.md): a delegate callback the map made, or a
/// runtime record (`info_window_shown`, `info_window_hidden`, `plugin_error`, `log`, ...), at
/// its virtual time, in the order it happened.
///
/// Callbacks are recorded when they start, so a callback made from inside another follows it;
/// the result of a veto or content callback is filled in when it returns.
public struct TraceRecord: Hashable, Sendable {
  /// Virtual time in seconds.
  public var time: Double
  /// The handler name or the runtime record's name.
  public var event: TraceEvent
  /// The marker's id, for marker events.
  package var marker: String?
  /// The overlay's id, for did_tap_overlay.
  package var overlay: String?
  /// The camera, for camera events.
  package var camera: CameraPosition?
  /// Whether a gesture moved the camera, for will_move.
  package var gesture: Bool?
  /// The coordinate, for coordinate events.
  package var coordinate: Coordinate?
  /// The final boolean of a veto; "content" or null for content events.
  package var result: TraceValue?
  /// Who answered: the answerer (a plugin, a Swift delegate beside them) whose answer decided
  /// a veto or content callback, `.null` for the default, or the source of a runtime record;
  /// nil when absent. Its JSON key is `plugin`, a contract.
  package var answerer: TraceValue?
  /// The text of errors, logs and failed expectations.
  package var message: String?
  /// Any further fields, in order (place_id, name, kind, ...).
  package var extra: [TraceField]

  /// Creates a record with only its time and event set.
  package init(time: Double, event: TraceEvent) {
    self.time = time
    self.event = event
    extra = []
  }

  /// The value of the field named `key` (`"marker"`, `"result"`, `"place_id"`...), as the
  /// JSON form has it; nil when the record has no such field.
  public subscript(key: String) -> TraceValue? {
    fields.first { $0.key == key }?.value
  }

  /// All fields in the contract's order, absent ones left out.
  package var fields: [TraceField] {
    var fields = [TraceField("t", .number(time)), TraceField("event", .string(event.rawValue))]
    if let marker { fields.append(TraceField("marker", .string(marker))) }
    if let overlay { fields.append(TraceField("overlay", .string(overlay))) }
    if let camera { fields.append(TraceField("camera", TraceRecord.value(of: camera))) }
    if let gesture { fields.append(TraceField("gesture", .bool(gesture))) }
    if let coordinate { fields.append(TraceField("coordinate", TraceRecord.value(of: coordinate))) }
    if let result { fields.append(TraceField("result", result)) }
    if let answerer { fields.append(TraceField("plugin", answerer)) }
    if let message { fields.append(TraceField("message", .string(message))) }
    return fields + extra
  }

  /// The decimals of every number in a trace.
  package static let decimals = 6

  /// `{ "lat", "lng", "zoom", "bearing", "tilt" }`, rounded with every invariant kept (R20):
  /// the bearing prints in [0, 360), the longitude in [-180, 180).
  package static func value(of camera: CameraPosition) -> TraceValue {
    let camera = camera.rounded(targetDecimals: decimals, zoomDecimals: decimals, angleDecimals: decimals)
    return .object([
      TraceField("lat", .number(camera.target.latitude)), TraceField("lng", .number(camera.target.longitude)),
      TraceField("zoom", .number(camera.zoom)), TraceField("bearing", .number(camera.bearing)),
      TraceField("tilt", .number(camera.tilt)),
    ])
  }

  /// `{ "lat", "lng" }`, rounded with its ranges kept (R20).
  package static func value(of coordinate: Coordinate) -> TraceValue {
    let coordinate = coordinate.rounded(decimals: decimals)
    return .object([TraceField("lat", .number(coordinate.latitude)), TraceField("lng", .number(coordinate.longitude))])
  }
}

/// The records of one map, in order. Recording can be switched off (benchmarks).
///
/// A log keeps at most ``capacity`` records (250,000 by default, about 100 MiB): past
/// it, records are counted in ``droppedCount`` and not kept, and the map's `advance` and
/// `settle` stop, so a script that loops over long animations until its budget runs out
/// cannot make the process hold gigabytes.
public final class TraceLog {
  /// Every record so far.
  public private(set) var records: [TraceRecord] = []
  /// Whether records are kept; when false, `append(_:)` drops them.
  public var isEnabled = true
  /// The most records kept at once (`removeAll()` makes room again).
  public var capacity = 250_000
  /// Records not kept because the log was full.
  public private(set) var droppedCount = 0

  /// Creates an empty log.
  public init() {}

  /// Whether the log holds ``capacity`` records: later ones are dropped.
  var isFull: Bool { records.count >= capacity }

  /// Adds a record; returns its index, or nil when recording is off or the log is full.
  @discardableResult
  package func append(_ record: TraceRecord) -> Int? {
    guard isEnabled else { return nil }
    guard !isFull else {
      droppedCount += 1
      return nil
    }
    records.append(record)
    return records.count - 1
  }

  /// Changes a record already added (to fill in a result when a callback returns).
  package func update(_ index: Int?, _ change: (inout TraceRecord) -> Void) {
    guard let index, records.indices.contains(index) else { return }
    change(&records[index])
  }

  /// Forgets every record.
  package func removeAll() { records.removeAll() }
}
