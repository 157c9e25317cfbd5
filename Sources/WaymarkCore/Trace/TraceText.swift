/// The trace for people: one aligned line per record (time, event, subject, details), with
/// the camera frames of each move folded into one line unless every frame is asked for.
/// Tile-rendering records that fall among the frames of a move are printed right after
/// its folded line, each with its own time.
///
/// ```
///      t  event                        subject      details
///  0.000  did_tap_marker               melbourne    result=false plugin=melbourne_window
///  0.017  did_change_camera_position   ×180 frames  0.017…3.000 → (-37.81969, 144.966085) zoom 8 …
/// ```
package struct TraceText {
  /// Whether every did_change_camera_position frame gets its own line.
  package var showsEveryFrame: Bool

  /// Creates a formatter; frames are folded unless `showsEveryFrame`.
  package init(showsEveryFrame: Bool = false) { self.showsEveryFrame = showsEveryFrame }

  /// The header line.
  package static let header = line(time: "t", event: "event", subject: "subject", details: "details")

  /// The lines of `records`, header first.
  package func lines(_ records: [TraceRecord]) -> [String] {
    var lines = [TraceText.header]
    var index = records.startIndex
    while index < records.endIndex {
      let record = records[index]
      guard !showsEveryFrame, record.event == Self.frame else {
        lines.append(TraceText.describe(record))
        index += 1
        continue
      }
      var frames = [record], interleaved: [TraceRecord] = []
      var next = index + 1
      while next < records.endIndex {
        if records[next].event == Self.frame {
          frames.append(records[next])
        } else if Self.rendering.contains(records[next].event),
          records[(next + 1)...].first(where: { !Self.rendering.contains($0.event) })?.event == Self.frame
        {
          interleaved.append(records[next])
        } else {
          break
        }
        next += 1
      }
      lines.append(frames.count > 1 ? folded(frames) : TraceText.describe(record))
      lines += interleaved.map(TraceText.describe)
      index = next
    }
    return lines
  }

  private static let frame = TraceEvent(DelegateCallback.didChangeCameraPosition)
  private static let rendering: Set<TraceEvent> = [
    TraceEvent(.didStartTileRendering), TraceEvent(.didFinishTileRendering), TraceEvent(.snapshotReady),
  ]

  /// The frames of one move as one line: how many, from when to when, and where it ended.
  private func folded(_ frames: [TraceRecord]) -> String {
    let first = frames.first!, last = frames.last!
    let range = "\(TraceText.time(first.time))…\(TraceText.time(last.time))"
    return TraceText.line(
      time: TraceText.time(first.time), event: first.event.rawValue, subject: "×\(frames.count) frames",
      details: "\(range) → \(last.camera.map(\.description) ?? "")")
  }

  /// One record as one line.
  package static func describe(_ record: TraceRecord) -> String {
    var details: [String] = []
    if let camera = record.camera { details.append(camera.description) }
    if let gesture = record.gesture { details.append("gesture=\(gesture)") }
    if let coordinate = record.coordinate {
      details.append(
        "(\(formatNumber(coordinate.latitude, decimals: 6)), \(formatNumber(coordinate.longitude, decimals: 6)))")
    }
    if let result = record.result { details.append("result=\(plain(result))") }
    if let plugin = record.plugin, plugin != .null { details.append("plugin=\(plain(plugin))") }
    for field in record.extra { details.append("\(escaped(field.key))=\(plain(field.value))") }
    if let message = record.message { details.append(escaped(message)) }
    let subject = escaped(record.marker ?? record.overlay ?? "")
    return line(
      time: time(record.time), event: escaped(record.event.rawValue), subject: subject,
      details: details.joined(separator: " "))
  }

  /// `text` safe on one line of a terminal: control characters (C0, DEL, C1), line and
  /// paragraph separators and bidirectional overrides become escapes (`\n`, `\t`, `\r`,
  /// `\u001b`, ...), and a backslash becomes `\\`, as the JSON trace writes them, so what a
  /// plugin prints can neither forge trace lines nor send escape sequences to the terminal.
  package static func escaped(_ text: String) -> String {
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

  private static func line(time: String, event: String, subject: String, details: String) -> String {
    let row = pad(time, 8, right: true) + "  " + pad(event, 28) + " " + pad(subject, 12) + " " + details
    return String(row.reversed().drop(while: { $0 == " " }).reversed())
  }

  private static func time(_ seconds: Double) -> String {
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
      return out
    }
  }
}
