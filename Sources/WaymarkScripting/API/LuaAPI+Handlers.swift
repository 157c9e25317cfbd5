import WaymarkCore

/// The signature of a plugin handler or lifecycle function, for docs and LuaLS definitions.
public struct LuaHandlerSignature: Sendable, Hashable {
  /// The field name in the plugin table (`did_tap_marker`, `setup`, ...).
  public let name: String
  /// The parameters, `map` first for handlers.
  public let parameters: [LuaAPIParameter]
  /// The LuaLS return type, nil when the return value is ignored.
  public let returns: String?
  /// One line for the definitions and the docs: what it is.
  public let doc: String

  /// `fun(map: Map, marker: Marker): boolean?`.
  public var functionType: String {
    "fun(\(parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ")))"
      + (returns.map { ": \($0)" } ?? "")
  }
}

extension LuaAPI {
  /// The 27 handlers, derived from the callback table (`DelegateCallback/signature`), in
  /// its order, called as `handler(map, ...)`.
  public static let handlers: [LuaHandlerSignature] = DelegateCallback.allCases.map { callback in
    let signature = callback.signature
    return LuaHandlerSignature(
      name: signature.name,
      parameters: [LuaAPIParameter("map", "Map")]
        + signature.arguments.map { LuaAPIParameter($0.name, luaType(of: $0.type)) },
      returns: luaType(of: signature.returns), doc: "\(signature.summary) \(compositionNote(signature.composition))")
  }

  /// The handler table of docs/plugins.md, one row per callback in the table's order
  /// (a test keeps the page equal to it).
  public static var handlerTableMarkdown: String {
    var lines = [
      "| # | handler | arguments after `map` | returns | composition | Swift (`MapViewDelegate`) |",
      "| --- | --- | --- | --- | --- | --- |",
    ]
    for callback in DelegateCallback.allCases {
      let signature = callback.signature
      let arguments = signature.arguments.map { "\($0.name): `\(luaType(of: $0.type))`" }
      let returns = luaType(of: signature.returns).map { "`\($0)`" } ?? "-"
      lines.append(
        "| \(callback.rawValue + 1) | \(signature.name) | \(arguments.isEmpty ? "-" : arguments.joined(separator: ", ")) "
          + "| \(returns) | \(signature.composition.rawValue) | `\(signature.swiftName)` |")
    }
    return lines.joined(separator: "\n")
  }

  /// The LuaLS type of a callback argument as its handler receives it.
  static func luaType(of kind: CallbackSignature.Argument.Kind) -> String {
    switch kind {
    case .boolean: "boolean"
    case .camera: "Camera"
    case .coordinate: "Coordinate"
    case .marker: "Marker"
    case .overlay: "Overlay"
    case .string: "string"
    case .capabilities: "table<string, true>"
    case .features: "Feature[]"
    case .cluster: "Cluster"
    case .clusterItem: "ClusterItem"
    }
  }

  /// The LuaLS type a handler returns, nil when its return value is ignored.
  static func luaType(of returns: CallbackSignature.Returns) -> String? {
    switch returns {
    case .nothing: nil
    case .handled: "boolean?"
    case .content: "Content?"
    }
  }

  /// How plugins' answers compose, in a few words for the definitions and the docs.
  static func compositionNote(_ composition: DelegateCallback.Composition) -> String {
    switch composition {
    case .veto: "Veto: the first true wins; later plugins are not asked and the default is skipped."
    case .content: "Content: the first non-nil answer wins."
    case .notification: "Notification: every plugin is called."
    }
  }

  /// The lifecycle fields of a plugin table.
  public static let lifecycle: [LuaHandlerSignature] = [
    LuaHandlerSignature(
      name: "setup", parameters: [.init("map", "Map"), .init("settings", "any")], returns: nil,
      doc:
        "Called once after every plugin of the folder loaded, in priority order, with a copy of settings[plugin.name] (waymark.map{ settings = }, the project's settings; nil if none)."
    ),
    LuaHandlerSignature(
      name: "teardown", parameters: [.init("map", "Map")], returns: nil,
      doc: "Called before the plugin is replaced by a reload or unloaded."),
    LuaHandlerSignature(
      name: "save_state", parameters: [], returns: "any",
      doc: "Called on the old version before a reload; its plain-data result is on_reload's old_state."),
    LuaHandlerSignature(
      name: "on_reload", parameters: [.init("old_state", "any"), .init("map", "Map")], returns: nil,
      doc: "Called on the new version after setup, with the old version's state (save_state(), else its `state` field)."
    ),
  ]

}
