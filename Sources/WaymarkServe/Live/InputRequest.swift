import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// The body of `POST /input`, decoded by Foundation: `{ "kind": "tap", "x": 195, "y": 422 }`
/// and the other kinds of docs/serve.md. Fields a kind does not use are ignored; a missing
/// one is named in the 400 answer.
struct InputRequest: Decodable {
  /// What the body asks for: an input to the map, or a change of the live clock.
  enum Action: Equatable {
    case input(LiveInput)
    case clock(paused: Bool?, speed: Double?)
  }

  var kind: String
  var x: Double?
  var y: Double?
  var marker: String?
  var dx: Double?
  var dy: Double?
  var zoomBy: Double?
  var degrees: Double?
  var seconds: Double?
  var duration: Double?
  var paused: Bool?
  var speed: Double?

  private enum CodingKeys: String, CodingKey {
    case kind, x, y, marker, dx, dy, degrees, seconds, duration, paused, speed
    case zoomBy = "zoom_by"
  }

  /// The most virtual seconds one `advance` input may ask for.
  static let longestAdvance = 600.0

  /// The kinds accepted, for messages.
  static let kinds = [
    "tap", "long_press", "double_tap", "tap_info_window", "long_press_info_window", "drag", "pan", "pinch",
    "rotate", "tilt", "tap_my_location_button", "tap_compass", "advance", "clock",
  ]

  /// Decodes a body; throws a message for the 400 answer.
  static func action(from body: Data) throws(InputError) -> Action {
    let request: InputRequest
    do {
      request = try JSONDecoder().decode(InputRequest.self, from: body)
    } catch let error as DecodingError {
      throw InputError(message: describe(error))
    } catch {
      throw InputError(message: "the body is not JSON: \(error.localizedDescription)")
    }
    return try request.action()
  }

  /// The action of a decoded body.
  func action() throws(InputError) -> Action {
    switch kind {
    case "tap": return .input(.tap(try point()))
    case "long_press": return .input(.longPress(try point()))
    case "double_tap": return .input(.doubleTap(try point()))
    case "tap_info_window": return .input(.tapInfoWindow)
    case "long_press_info_window": return .input(.longPressInfoWindow)
    case "drag":
      return .input(.drag(marker: try require(marker, "marker"), to: try point(), duration: duration ?? 1))
    case "pan": return .input(.pan(dx: try require(dx, "dx"), dy: try require(dy, "dy"), duration: duration ?? 0.5))
    case "pinch":
      let around = x != nil || y != nil ? try point() : nil
      return .input(.pinch(zoomBy: try require(zoomBy, "zoom_by"), around: around, duration: duration ?? 0.5))
    case "rotate": return .input(.rotate(degrees: try require(degrees, "degrees"), duration: duration ?? 0.5))
    case "tilt": return .input(.tilt(degrees: try require(degrees, "degrees"), duration: duration ?? 0.5))
    case "tap_my_location_button": return .input(.tapMyLocationButton)
    case "tap_compass": return .input(.tapCompass)
    case "advance":
      let seconds = try require(seconds, "seconds")
      // Bounded, so that one request cannot keep the map busy for hours (an animation that
      // re-arms itself makes frames for as long as time is advanced).
      guard seconds <= Self.longestAdvance else {
        throw InputError(
          message:
            "advance.seconds: \(formatNumber(seconds)) is more than \(formatNumber(Self.longestAdvance)) (one input advances at most 10 minutes)"
        )
      }
      return .input(.advance(seconds: seconds))
    case "clock":
      guard paused != nil || speed != nil else { throw InputError(message: "clock needs paused or speed") }
      if let speed, !WallClockPacer.speeds.contains(speed) {
        throw InputError(
          message:
            "clock.speed: \(formatNumber(speed)) is outside \(formatNumber(WallClockPacer.speeds.lowerBound))...\(formatNumber(WallClockPacer.speeds.upperBound))"
        )
      }
      return .clock(paused: paused, speed: speed)
    default:
      throw InputError(
        message: "kind \"\(kind)\" is not one of \(Self.kinds.joined(separator: ", "))"
          + Suggestion.hint(for: kind, among: Self.kinds))
    }
  }

  private func point() throws(InputError) -> Point {
    Point(x: try require(x, "x"), y: try require(y, "y"))
  }

  private func require<Value>(_ value: Value?, _ field: String) throws(InputError) -> Value {
    guard let value else { throw InputError(message: "\(kind) needs \"\(field)\"") }
    return value
  }

  /// A decoding error as one line naming the field.
  private static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      return path.isEmpty ? "the body" : path.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, _): return "the body needs \"\(key.stringValue)\""
    case .typeMismatch(let type, let context): return "\(path(context)): expected \(Self.name(of: type))"
    case .valueNotFound(let type, let context): return "\(path(context)): expected \(Self.name(of: type)), got null"
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
      return "the body is not a JSON object: \(underlying ?? context.debugDescription)"
    @unknown default: return "the body could not be read: \(error)"
    }
  }

  private static func name(of type: Any.Type) -> String {
    switch type {
    case is Double.Type: "a number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    default: "a JSON object"
    }
  }
}

/// Why a body was refused, for the 400 answer.
struct InputError: Error {
  /// One line naming the field.
  let message: String
}
