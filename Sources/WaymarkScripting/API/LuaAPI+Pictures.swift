import LuaKit
import WaymarkCore

extension LuaAPI {
  /// `Map`: pictures of the map (docs/pictures.md).
  static let pictureEntries: [LuaAPIEntry] = [
    .method(
      "Map", "snapshot", [.init("path", "string?")], returns: "string?",
      "Writes the map as it is now as an SVG picture to path, or without one into the run's --snapshots folder "
        + "(NNNN-<t>-snapshot.svg; nothing without the option); returns the path written. Scripts only.",
      { bridge, context in
        guard let snapshot = bridge.snapshot else {
          throw LuaFunctionError("snapshot cannot be called from a plugin: only scripts write files")
        }
        let path = try context.optionalString(2)
        if let path, path.isEmpty { throw LuaFunctionError("snapshot: the path is empty") }
        guard let written = try snapshot(try bridge.requireMap(), path) else {
          context.stack.pushNil()
          return 1
        }
        context.stack.push(written)
        return 1
      })
  ]
}
