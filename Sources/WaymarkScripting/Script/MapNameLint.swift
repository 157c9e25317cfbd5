import Foundation
import WaymarkCore

/// A static look at Lua source for uses of the map's API that cannot work: `map:name(...)`
/// or `map.name` where `name` is not a member of `Map` (by the convention of plugins and
/// scripts, the map is a variable called `map`). Part of `waymark check`.
enum MapNameLint {
  /// Warnings for unknown members of `map`, with a suggestion, by line.
  static func check(_ source: String, file: String) -> [PluginDiagnostic] {
    let members = Set(LuaAPI.entries(of: "Map").map(\.name))
    var found: [PluginDiagnostic] = []
    var inLongComment = false
    for (number, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = Substring(rawLine)
      if inLongComment {
        guard let end = line.range(of: "]]") else { continue }
        line = line[end.upperBound...]
        inLongComment = false
      }
      let code = stripStringsAndComments(line, inLongComment: &inLongComment)
      for (separator, name) in uses(in: code) where !members.contains(name) {
        let what = separator == ":" ? "method" : "field"
        found.append(
          PluginDiagnostic(
            severity: .warning, file: file, line: number + 1,
            message: "map\(separator)\(name): Map has no \(what) '\(name)'"
              + Suggestion.hint(for: name, among: members.sorted())))
      }
    }
    return found
  }

  /// `map:name` and `map.name` uses in a line of code (strings and comments removed).
  private static func uses(in code: String) -> [(Character, String)] {
    var result: [(Character, String)] = []
    let characters = Array(code)
    var index = 0
    while index + 3 < characters.count {
      defer { index += 1 }
      guard characters[index] == "m", characters[index + 1] == "a", characters[index + 2] == "p" else { continue }
      if index > 0, isIdentifier(characters[index - 1]) || characters[index - 1] == "." || characters[index - 1] == ":"
      {
        continue
      }
      var position = index + 3
      while position < characters.count, characters[position] == " " { position += 1 }
      guard position < characters.count, characters[position] == ":" || characters[position] == "." else { continue }
      let separator = characters[position]
      position += 1
      while position < characters.count, characters[position] == " " { position += 1 }
      var name = ""
      while position < characters.count, isIdentifier(characters[position]) {
        name.append(characters[position])
        position += 1
      }
      if !name.isEmpty, !(name.first!.isNumber) { result.append((separator, name)) }
    }
    return result
  }

  private static func isIdentifier(_ character: Character) -> Bool {
    character == "_" || character.isLetter || character.isNumber
  }

  /// The line with string literals blanked and comments cut; notes a long comment that starts
  /// here and does not end.
  private static func stripStringsAndComments(_ line: Substring, inLongComment: inout Bool) -> String {
    var out = ""
    var quote: Character?
    let characters = Array(line)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if let open = quote {
        if character == "\\" {
          index += 2
          continue
        }
        if character == open { quote = nil }
        out.append(" ")
      } else if character == "\"" || character == "'" {
        quote = character
        out.append(" ")
      } else if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
        let rest = String(characters[(index + 2)...])
        if rest.hasPrefix("[["), !rest.dropFirst(2).contains("]]") { inLongComment = true }
        break
      } else {
        out.append(character)
      }
      index += 1
    }
    return out
  }
}
