import Foundation
import WaymarkCore
import WaymarkScripting

/// The inputs made on a live map, written as a test file that replays them (`waymark serve
/// SCRIPT --record FILE`, docs/serve.md "Recording a test"): the file requires SCRIPT, which
/// builds the same map, makes each input at the virtual time it was made, and ends with an
/// expectation on the last record of `map:trace()`.
///
/// The file lies beside SCRIPT, so that SCRIPT's relative paths (its plugins, its modules)
/// mean the same in it, and requires it by its name.
public final class LiveRecording {
  /// Where the test file is written.
  public let file: String
  /// The script's module name (its file name without `.lua`).
  let module: String
  /// The `--plugins` folders the live map had beside the script's own, which the test needs too.
  let pluginFolders: [String]
  /// Each input made, in order: the virtual time it was made at and its Lua line.
  private(set) var inputs: [(time: Double, line: String)] = []
  /// The last record the live map made.
  private(set) var lastRecord: TraceRecord?

  /// A recording of the inputs made on the map of `script`, served with `--plugins
  /// pluginFolders`, written to `file`. Throws a message when `file` is not a `.lua` file in
  /// `script`'s folder or `script`'s name cannot be required.
  public init(file: String, script: String, pluginFolders: [String] = []) throws(LiveSessionError) {
    let scriptURL = URL(fileURLWithPath: script).standardizedFileURL
    let fileURL = URL(fileURLWithPath: file).standardizedFileURL
    let folder = scriptURL.deletingLastPathComponent().path
    guard fileURL.deletingLastPathComponent().path == folder else {
      throw LiveSessionError(
        message:
          "--record \(file): write the recorded test beside \(script) (in \(PluginFiles.folder(of: script))): it requires the script, whose relative paths (plugins, modules) are relative to its folder"
      )
    }
    guard fileURL.pathExtension == "lua", fileURL.path != scriptURL.path else {
      throw LiveSessionError(
        message: "--record \(file): name a new .lua file for the recorded test (e.g. clicked_test.lua)")
    }
    let name = scriptURL.deletingPathExtension().lastPathComponent
    let allowed = name.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-".unicodeScalars.contains($0)
    }
    guard scriptURL.pathExtension == "lua", allowed, !name.isEmpty else {
      throw LiveSessionError(
        message:
          "--record: \(script) cannot be required by its name (a .lua file named with letters, digits, _ and - only)")
    }
    self.file = file
    module = name
    self.pluginFolders = pluginFolders
  }

  /// Notes the records the live map made (the last one is the one the test expects).
  func observe(_ records: [TraceRecord]) {
    if let last = records.last { lastRecord = last }
  }

  /// Notes an input the map took at virtual time `time`, as its Lua line (``line(for:on:)``).
  func add(_ line: String, at time: Double) {
    inputs.append((time, line))
  }

  /// The Lua line that makes `input` on `map`, read before the input is applied (a drag's
  /// point becomes the coordinate under it then, as the input reads it); nil for time, which
  /// the lines' `at` replay.
  static func line(for input: LiveInput, on map: MapView) -> String? {
    let line: String
    switch input {
    case .tap(let point): line = "map:tap(\(Self.literal(point)))"
    case .longPress(let point): line = "map:long_press(\(Self.literal(point)))"
    case .doubleTap(let point): line = "map:double_tap(\(Self.literal(point)))"
    case .tapInfoWindow: line = "map:tap_info_window()"
    case .longPressInfoWindow: line = "map:long_press_info_window()"
    case .drag(let id, let point, let duration):
      guard let to = map.projection.coordinate(for: point) else { return nil }
      line =
        "map:drag(map:marker(\(Self.literal(id))), { lat = \(Self.number(to.latitude)), lng = \(Self.number(to.longitude)) }, { duration = \(Self.number(duration)) })"
    case .pan(let dx, let dy, let duration):
      line = "map:pan({ x = \(Self.number(dx)), y = \(Self.number(dy)) }, { duration = \(Self.number(duration)) })"
    case .pinch(let zoomBy, let around, let duration):
      let point = around.map { "point = \(Self.literal($0)), " } ?? ""
      line = "map:pinch(\(Self.number(zoomBy)), { \(point)duration = \(Self.number(duration)) })"
    case .rotate(let degrees, let duration):
      line = "map:rotate(\(Self.number(degrees)), { duration = \(Self.number(duration)) })"
    case .tilt(let degrees, let duration):
      line = "map:tilt(\(Self.number(degrees)), { duration = \(Self.number(duration)) })"
    case .tapMyLocationButton: line = "map:tap_my_location_button()"
    case .tapCompass: line = "map:tap_compass()"
    case .advance: return nil
    }
    return line
  }

  /// The test file, ending at virtual time `end`.
  public func text(endingAt end: Double) -> String {
    // In a comment: a line break in a name would end it.
    func shown(_ text: String) -> String {
      String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
    let plugins = pluginFolders.map { " --plugins \(shown($0))" }.joined()
    let name = shown(URL(fileURLWithPath: file).lastPathComponent)
    var lines = [
      "-- Recorded by `waymark serve \(module).lua\(plugins) --record \(name)`: the inputs made on the live",
      "-- map, each at the virtual time it was made. Keep its trace as a golden with",
      "-- `waymark test \(name)\(plugins) --golden DIR --update`.",
      "require(\(Self.literal(module)))",
      "local map = waymark.current_map()",
      "",
      "-- Advances the map's virtual time to t seconds, at most ten minutes at a time.",
      "local function at(t)",
      "  while map.time < t do",
      "    map:advance(math.min(t - map.time, 600))",
      "  end",
      "end",
      "",
    ]
    for input in inputs {
      lines.append("at(\(Self.number(input.time)))")
      lines.append(input.line)
    }
    lines.append("at(\(Self.number(end)))")
    lines.append("")
    lines.append("local records = map:trace()")
    if let last = lastRecord {
      lines.append("expect_eq(records[#records], \(Self.literal(.object(last.fields))), \"the last record\")")
    } else {
      lines.append("expect_eq(#records, 0, \"the map made no record\")")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes the test file, ending at virtual time `end`.
  public func write(endingAt end: Double) throws(TextFile.WriteError) {
    try TextFile.write(text(endingAt: end), to: file)
  }

  // MARK: Lua literals

  /// A number as Lua reads it back to the same double: the shortest digits that round-trip.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "(0/0)" : value < 0 ? "-math.huge" : "math.huge" }
    return formatNumber(value)
  }

  /// `{ x = .., y = .. }`.
  static func literal(_ point: Point) -> String { "{ x = \(number(point.x)), y = \(number(point.y)) }" }

  /// A string as a Lua literal: quotes, backslashes and control characters escaped.
  static func literal(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\" + String(format: "%03d", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// A trace value as `map:trace()` gives it, as a Lua literal: numbers rounded as the trace
  /// rounds them, null left out, keys in the trace's order.
  static func literal(_ value: TraceValue) -> String {
    switch value {
    case .null: return "nil"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let n): return n.isFinite ? formatNumber(n, decimals: TraceRecord.decimals) : "nil"
    case .string(let text): return literal(text)
    case .list(let items): return "{ " + items.map(literal).joined(separator: ", ") + " }"
    case .object(let fields):
      let parts = fields.filter { $0.value != .null }.map { field in
        let isName =
          field.key.first.map { !$0.isNumber } == true
          && field.key.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
          }
        return (isName ? field.key : "[\(literal(field.key))]") + " = " + literal(field.value)
      }
      return "{ " + parts.joined(separator: ", ") + " }"
    }
  }
}
