import LuaKit
import WaymarkCore

/// The core names fields and actions as Swift does (`marker.groundAnchor.x`, `longPress`);
/// Lua users read them as the Lua API spells them (`marker.ground_anchor.x`, `long_press`).
/// One translation at the boundary: a Swift field path to its Lua form.
enum LuaNames {
  /// Swift names whose Lua names are not their snake_case.
  static let renamed = ["latitude": "lat", "longitude": "lng", "strokeWidth": "width"]

  /// `path` with every name in Lua's spelling: `featureLayer.features[2].placeID` becomes
  /// `feature_layer.features[2].place_id`. Lua names pass through unchanged.
  static func path(_ path: String) -> String {
    var out = ""
    var word = ""
    func flush() {
      out += renamed[word] ?? snakeCase(word)
      word = ""
    }
    for character in path {
      if character.isLetter || character.isNumber || character == "_" {
        word.append(character)
      } else {
        flush()
        out.append(character)
      }
    }
    flush()
    return out
  }

  /// `groundAnchor` → `ground_anchor`, `placeID` → `place_id`, `zoom_by` unchanged.
  static func snakeCase(_ name: String) -> String {
    let characters = Array(name)
    var out = ""
    for (index, character) in characters.enumerated() {
      if character.isUppercase, index > 0 {
        let previous = characters[index - 1]
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
          out.append("_")
        }
      }
      out += character.lowercased()
    }
    return out
  }
}

extension MapError {
  /// The message a Lua user reads: the description, with field and action names as Lua
  /// spells them (``LuaNames``).
  package var luaDescription: String {
    switch self {
    case .invalidValue(let field, let value, let reason):
      MapError.invalidValue(field: LuaNames.path(field), value: value, reason: reason).description
    case .invalidRelation(let field, let value, let relation, let other, let otherValue):
      MapError.invalidRelation(
        field: LuaNames.path(field), value: value, relation: relation, other: LuaNames.path(other),
        otherValue: otherValue
      ).description
    case .reentrantInput(let action, let callback):
      MapError.reentrantInput(action: LuaNames.path(action), callback: callback).description + " (map:after(0, ...))"
    case .noInfoWindow(let action): MapError.noInfoWindow(action: LuaNames.path(action)).description
    case .stopped(let action, let time, let reason, let pending):
      MapError.stopped(action: LuaNames.path(action), time: time, reason: reason, pending: pending).description
    case .markerOnAnotherMap, .notOnThisMap, .didNotSettle: description
    }
  }

  /// This error as the Lua error that carries it.
  var luaError: LuaFunctionError { LuaFunctionError(luaDescription) }
}
