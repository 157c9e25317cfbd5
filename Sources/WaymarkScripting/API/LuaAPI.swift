import LuaKit
import WaymarkCore

/// The Lua face of the map, declared once as data.
///
/// The installer builds every metatable and method from ``entries``; `waymark types`
/// generates a LuaLS `---@meta` file from the same data (``entries``, ``shapes``,
/// ``handlers``, ``lifecycle``), so the definitions cannot drift from what is installed.
///
/// Walk it like this to print definitions:
/// ```swift
/// for owner in LuaAPI.owners {
///   print("---@class \(owner.name)")
///   for entry in LuaAPI.entries(of: owner.name) where entry.kind != .method {
///     print("---@field \(entry.name) \(entry.type) \(entry.doc)")
///   }
/// }
/// ```
public enum LuaAPI {
  /// Every member of every owner, in declaration order.
  public static let entries: [LuaAPIEntry] =
    mapEntries + projectionEntries + traceEntries + mapInputEntries + placeEntries + viewEntries + pictureEntries
    + markerEntries + overlayEntries + timerEntries + clusterEntries

  /// The owners (Lua classes backed by Swift objects), in declaration order.
  public static let owners: [LuaAPIOwner] = [
    LuaAPIOwner(name: "Map", doc: "A map: camera, markers, overlays, selection, input and time."),
    LuaAPIOwner(
      name: "Marker",
      doc:
        "A marker (R1). The same marker is always the same Lua value, so `marker == other` compares identity."
    ),
    LuaAPIOwner(
      name: "Overlay", doc: "A polyline, polygon, circle or ground overlay (R15)."),
    LuaAPIOwner(
      name: "Timer", doc: "A callback scheduled on the map's virtual clock by `map:after`."),
    LuaAPIOwner(
      name: "Projection",
      doc: "A snapshot of the map's projection (R68): the conversions at the camera it was taken at, as GMSProjection."),
    LuaAPIOwner(
      name: "Clusters", doc: "A cluster manager made by `map:clusters{}`, as Google Maps Utils' (R60-R64)."),
  ]

  /// The members of one owner, in declaration order.
  public static func entries(of owner: String) -> [LuaAPIEntry] {
    entries.filter { $0.owner == owner }
  }

  /// The entry `owner.name`, if any.
  public static func entry(_ owner: String, _ name: String) -> LuaAPIEntry? {
    entries.first { $0.owner == owner && $0.name == name }
  }
}

/// A Lua class backed by a Swift object (`Map`, `Marker`, `Overlay`, `Timer`, `Projection`).
public struct LuaAPIOwner: Sendable, Hashable {
  /// The class name as LuaLS shows it.
  public let name: String
  /// One line for the definitions and the docs: what it is.
  public let doc: String
}

/// What kind of member an entry is.
public enum LuaAPIMemberKind: String, Sendable, Hashable {
  /// Called with `object:name(...)`.
  case method
  /// Read with `object.name`; assigning raises an error.
  case readOnlyProperty = "read-only property"
  /// Read with `object.name`, assigned with `object.name = value` (validated).
  case property
}

/// A parameter of a method, in LuaLS terms.
public struct LuaAPIParameter: Sendable, Hashable {
  /// The parameter's name.
  public let name: String
  /// Its LuaLS type, e.g. `Coordinate`, `number?`, `fun(finished: boolean)`.
  public let type: String
  /// A parameter named `name` of LuaLS type `type`.
  public init(_ name: String, _ type: String) {
    self.name = name
    self.type = type
  }
}

/// One member of the Lua API: its owner, name, kind, LuaLS types, a one-line doc and the
/// implementation the installer binds.
public struct LuaAPIEntry: Sendable {
  /// The owning class (`Map`, `Marker`, ...).
  public let owner: String
  /// The Lua name (snake_case).
  public let name: String
  /// Method or property.
  public let kind: LuaAPIMemberKind
  /// For methods: the parameters after `self`.
  public let parameters: [LuaAPIParameter]
  /// For methods: the LuaLS return type (`nil` when it returns nothing); for properties:
  /// the property's type.
  public let type: String?
  /// One line for the definition file and the docs.
  public let doc: String
  /// Whether this is map input (tap, gesture, time), which the core refuses from inside a
  /// callback (the re-entrancy rule).
  public let isInput: Bool
  let implementation: LuaAPIImplementation

  /// The LuaLS signature of a method: `fun(self: Map, marker: Marker): boolean`.
  public var functionType: String {
    let parameters = ["self: \(owner)"] + self.parameters.map { "\($0.name): \($0.type)" }
    return "fun(\(parameters.joined(separator: ", ")))" + (type.map { ": \($0)" } ?? "")
  }

  static func method(
    _ owner: String, _ name: String, _ parameters: [LuaAPIParameter] = [], returns: String? = nil,
    input: Bool = false, _ doc: String, _ body: @escaping LuaAPIImplementation.Method
  ) -> LuaAPIEntry {
    LuaAPIEntry(
      owner: owner, name: name, kind: .method, parameters: parameters, type: returns, doc: doc,
      isInput: input, implementation: .method(body))
  }

  static func property(
    _ owner: String, _ name: String, _ type: String, _ doc: String,
    get: @escaping LuaAPIImplementation.Getter, set: LuaAPIImplementation.Setter? = nil
  ) -> LuaAPIEntry {
    LuaAPIEntry(
      owner: owner, name: name, kind: set == nil ? .readOnlyProperty : .property, parameters: [],
      type: type, doc: doc, isInput: false, implementation: .property(get: get, set: set))
  }
}

/// How an entry is implemented: Swift closures given the state's bridge.
enum LuaAPIImplementation: Sendable {
  /// Arguments from 1 (`self`); pushes results and returns their count.
  typealias Method = @Sendable (LuaMapBridge, LuaCallContext) throws -> Int32
  /// Pushes the value of the property of the object at the index.
  typealias Getter = @Sendable (LuaMapBridge, LuaStack, Int32) throws -> Void
  /// Assigns the value at the second index to the object at the first.
  typealias Setter = @Sendable (LuaMapBridge, LuaStack, Int32, Int32) throws -> Void

  case method(Method)
  case property(get: Getter, set: Setter?)
}
