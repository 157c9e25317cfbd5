import LuaKit

/// What `waymark.data.geojson` checks of a decoded file (RFC 7946): an object whose `type`
/// is one of GeoJSON's, a FeatureCollection's `features` a list. The features themselves are
/// checked where they are used (``LuaAPI`` `add_markers`), with the index of a bad one.
enum GeoJSON {
  /// The `type`s of a GeoJSON object.
  static let types = [
    "FeatureCollection", "Feature", "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon",
    "MultiPolygon", "GeometryCollection",
  ]

  /// Throws unless the value at `index` is a GeoJSON object.
  static func requireObject(at index: Int32, on stack: LuaStack, file: String) throws(LuaFunctionError) {
    let index = stack.absoluteIndex(index)
    guard stack.type(at: index) == .table else {
      throw LuaFunctionError("waymark.data.geojson: \(file): not a GeoJSON object (a \(stack.typeName(at: index)))")
    }
    let type = stack.withStackBalance {
      stack.rawGetField("type", ofTableAt: index) == .string ? stack.string(at: -1) : nil
    }
    guard let type, types.contains(type) else {
      throw LuaFunctionError(
        "waymark.data.geojson: \(file): \"type\" is \(type.map { "\"\($0)\"" } ?? "missing"), not one of "
          + types.joined(separator: ", "))
    }
    guard type == "FeatureCollection" else { return }
    try stack.withStackBalance { () throws(LuaFunctionError) in
      guard stack.rawGetField("features", ofTableAt: index) == .table else {
        throw LuaFunctionError("waymark.data.geojson: \(file): a FeatureCollection without a \"features\" list")
      }
      // A JSON object (`"features": {"a": 1}`) decodes to a table too: it must be an array.
      try LuaValues.requireList(ofTableAt: -1, on: stack, what: "waymark.data.geojson: \(file): \"features\"")
    }
  }
}
