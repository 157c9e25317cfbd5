/// The trace for people: one aligned line per record (time, event, subject, details), with
/// the frames of each move folded into one line unless every frame is asked for: the camera
/// frames of a move, and the `did_drag_marker` frames of a drag. Tile-rendering records that
/// fall among the frames are printed right after the folded line, each with its own time. The subject column is as wide as the longest marker or overlay id of the
/// trace (up to 40 characters; longer ids are cut with `…`), so long ids keep the columns.
/// With ``colors``, ANSI colours mark errors, failures, warnings, logs and folded frames.
///
/// ```
///      t  event                        subject      details
///  0.000  did_tap_marker               melbourne    result=false plugin=melbourne_window
///  0.017  did_change_camera_position   ×180 frames  0.017…3.000 → (-37.81969, 144.966085) zoom 8 …
///  4.017  did_drag_marker              pin          ×30 frames 4.017…4.500
/// ```
package struct TraceText {
  /// Whether every did_change_camera_position and did_drag_marker frame gets its own line.
  package var showsEveryFrame: Bool
  /// Whether lines carry ANSI colours (for a terminal; see ``wantsColors(isTerminal:environment:)``).
  package var colors: Bool

  /// Creates a formatter; frames are folded unless `showsEveryFrame`; no colours unless
  /// `colors`.
  package init(showsEveryFrame: Bool = false, colors: Bool = false) {
    self.showsEveryFrame = showsEveryFrame
    self.colors = colors
  }

  /// Whether a trace written to a stream should be coloured: only on a terminal, and never
  /// when the `NO_COLOR` environment variable is set to anything but the empty string
  /// (no-color.org) or `TERM` is `dumb`.
  package static func wantsColors(isTerminal: Bool, environment: [String: String]) -> Bool {
    isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
  }

  /// The header line, with the default subject width.
  package static let header = line(time: "t", event: "event", subject: "subject", details: "details")

  /// The widest subject column, in characters; longer ids are cut.
  static let widestSubject = 40

  /// The lines of `records`, header first.
  package func lines(_ records: [TraceRecord]) -> [String] {
    let width = Self.subjectWidth(of: records)
    return [Self.line(time: "t", event: "event", subject: "subject", details: "details", width: width)]
      + groups(records, width: width).joined()
  }

  /// The subject column's width for `records`: their longest id, at least 12 characters and
  /// at most ``widestSubject``.
  static func subjectWidth(of records: [TraceRecord]) -> Int {
    let longest = records.lazy.map { Self.escaped($0.marker ?? $0.overlay ?? "").count }.max() ?? 0
    return min(max(12, longest), Self.widestSubject)
  }

  /// The lines of `records`, without a header, with a subject column `width` wide (so that
  /// lines of several slices of traces line up), in groups: a record's line, or a folded
  /// run's line followed by the tile-rendering records that fell among its frames.
  func groups(_ records: [TraceRecord], width: Int) -> [[String]] {
    var groups: [[String]] = []
    var index = records.startIndex
    while index < records.endIndex {
      let record = records[index]
      guard !showsEveryFrame, Self.frames.contains(record.event) else {
        groups.append([paint(Self.describe(record, width: width), Self.color(of: record.event))])
        index += 1
        continue
      }
      var frames = [record], interleaved: [TraceRecord] = []
      var next = index + 1
      while next < records.endIndex {
        if records[next].event == record.event, records[next].marker == record.marker {
          frames.append(records[next])
        } else if Self.rendering.contains(records[next].event),
          let after = records[(next + 1)...].first(where: { !Self.rendering.contains($0.event) }),
          after.event == record.event, after.marker == record.marker
        {
          interleaved.append(records[next])
        } else {
          break
        }
        next += 1
      }
      let line =
        frames.count > 1
        ? paint(folded(frames, width: width), Self.dim) : paint(Self.describe(record, width: width), nil)
      groups.append([line] + interleaved.map { paint(Self.describe($0, width: width), Self.color(of: $0.event)) })
      index = next
    }
    return groups
  }

  private static let frame = TraceEvent.callback(.didChangeCameraPosition)
  /// The events whose runs are folded: camera frames, and drag frames of one marker.
  private static let frames: Set<TraceEvent> = [frame, .callback(.didDragMarker)]
  private static let rendering: Set<TraceEvent> = [
    .callback(.didStartTileRendering), .callback(.didFinishTileRendering), .callback(.snapshotReady),
  ]

  /// The frames of one move or drag as one line: how many, from when to when, and where a
  /// camera move ended.
  private func folded(_ frames: [TraceRecord], width: Int) -> String {
    let first = frames.first!, last = frames.last!
    let range = "\(TraceText.time(first.time))…\(TraceText.time(last.time))"
    guard first.event == Self.frame else {
      return TraceText.line(
        time: TraceText.time(first.time), event: first.event.rawValue, subject: TraceText.subject(first, width: width),
        details: "×\(frames.count) frames \(range)", width: width)
    }
    return TraceText.line(
      time: TraceText.time(first.time), event: first.event.rawValue, subject: "×\(frames.count) frames",
      details: "\(range) → \(last.camera.map(\.description) ?? "")", width: width)
  }

  /// The terminal colour (an SGR code) of dim lines: plugins coming and going, folded runs.
  private static let dim = "2"

  /// The colour of a kind of record, by its event's tone: failures red, warnings yellow,
  /// logs cyan, info windows green, plugins coming and going dim; nil for the rest.
  private static func color(of event: TraceEvent) -> String? {
    switch event.tone {
    case .failure: "31"
    case .warning: "33"
    case .log: "36"
    case .lifecycle: dim
    case .infoWindow: "32"
    case .plain: nil
    }
  }

  /// `line` in `color`, when colours are on and it has one.
  private func paint(_ line: String, _ color: String?) -> String {
    guard colors, let color else { return line }
    return "\u{1B}[\(color)m\(line)\u{1B}[0m"
  }

  /// One record as one line (the default subject width).
  package static func describe(_ record: TraceRecord) -> String { describe(record, width: 12) }

  static func describe(_ record: TraceRecord, width: Int) -> String {
    var details: [String] = []
    if let camera = record.camera { details.append(camera.description) }
    if let gesture = record.gesture { details.append("gesture=\(gesture)") }
    if let coordinate = record.coordinate {
      details.append(coordinate.description(decimals: TraceRecord.decimals))
    }
    if let result = record.result { details.append("result=\(plain(result))") }
    if let answerer = record.answerer, answerer != .null { details.append("plugin=\(plain(answerer))") }
    // file and line repeat what the message starts with: people read them there.
    for field in record.extra where record.message == nil || (field.key != "file" && field.key != "line") {
      details.append("\(escaped(field.key))=\(plain(field.value))")
    }
    if let message = record.message { details.append(escaped(message)) }
    return line(
      time: time(record.time), event: escaped(record.event.rawValue), subject: subject(record, width: width),
      details: details.joined(separator: " "), width: width)
  }

  /// The marker or overlay id, escaped, cut with `…` past the widest column.
  private static func subject(_ record: TraceRecord, width: Int) -> String {
    let id = escaped(record.marker ?? record.overlay ?? "")
    return id.count > width ? String(id.prefix(width - 1)) + "…" : id
  }

  /// `text` safe on one line of a terminal: control characters (C0, DEL, C1), line and
  /// paragraph separators and bidirectional overrides become escapes (`\n`, `\t`, `\r`,
  /// `\u001b`, ...), and a backslash becomes `\\`, as the JSON trace writes them, so what a
  /// plugin prints can neither forge trace lines nor send escape sequences to the terminal.
  package static func escaped(_ text: String) -> String { escaped(text, backslashes: true) }

  /// ``escaped(_:)`` leaving backslashes as they are: for text that may hold escapes already
  /// (a command's message naming an escaped file), where only raw control characters must go.
  package static func escapedControls(_ text: String) -> String { escaped(text, backslashes: false) }

  /// ``escaped(_:)``, leaving backslashes as they are when `backslashes` is false (for JSON,
  /// whose backslashes are its own escapes).
  private static func escaped(_ text: String, backslashes: Bool) -> String {
    let needsEscape = { (scalar: Unicode.Scalar) in Self.needsEscape(scalar) && (backslashes || scalar != "\\") }
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case "\\": out += "\\\\"
      default:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      }
    }
    return out
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0...0x1F, 0x5C, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  private static func line(time: String, event: String, subject: String, details: String, width: Int = 12)
    -> String
  {
    let row = pad(time, 8, right: true) + "  " + pad(event, 28) + " " + pad(subject, width) + " " + details
    return String(row.reversed().drop(while: { $0 == " " }).reversed())
  }

  static func time(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e12 else { return formatNumber(seconds) }
    let millis = Int((seconds * 1000).rounded())
    let fraction = String(millis % 1000)
    return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }

  private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    guard text.count < width else { return text }
    let spaces = String(repeating: " ", count: width - text.count)
    return right ? spaces + text : text + spaces
  }

  private static func plain(_ value: TraceValue) -> String {
    switch value {
    case .string(let text): return escaped(text)
    case .list(let items): return items.map(plain).joined(separator: ",")
    default:
      var out = ""
      TraceJSON.write(value, to: &out)
      // JSON escapes only C0 controls: the rest (C1, separators, bidi overrides) too, and its
      // own backslash escapes stay as they are.
      return escaped(out, backslashes: false)
    }
  }
}
